package server

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// explainInvalid says in one sentence, naming the field and the bound,
// why v does not match schema, for the keywords our hand-written input
// schemas use (type, required, properties, additionalProperties, items,
// minItems, maxItems, minimum, maximum, minLength). It returns "" when it
// finds no such problem; the caller then keeps the validator's own text.
// It runs only after validation failed, so valid calls never pay for it.
func explainInvalid(schema *jsonschema.Schema, v any) string {
	if _, ok := v.(map[string]any); !ok {
		return fmt.Sprintf("the arguments must be an object, not %s", describe(v))
	}
	return explainAt(schema, v, "")
}

// explainAt checks v against s; where names v in the sentence ("" for the
// arguments object itself).
func explainAt(s *jsonschema.Schema, v any, where string) string {
	if s == nil {
		return ""
	}
	if msg := explainType(s, v, where); msg != "" {
		return msg
	}
	switch x := v.(type) {
	case map[string]any:
		return explainObject(s, x, where)
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			return fmt.Sprintf("%s must have at least %s, got %d", where, plural(*s.MinItems, "element"), len(x))
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			return fmt.Sprintf("%s must have at most %s, got %d", where, plural(*s.MaxItems, "element"), len(x))
		}
		for i, e := range x {
			if msg := explainAt(s.Items, e, fmt.Sprintf("%s element %d", where, i)); msg != "" {
				return msg
			}
		}
	case float64:
		if s.Minimum != nil && x < *s.Minimum {
			return fmt.Sprintf("%s must be at least %s, got %s", where, number(*s.Minimum), number(x))
		}
		if s.Maximum != nil && x > *s.Maximum {
			return fmt.Sprintf("%s must be at most %s, got %s", where, number(*s.Maximum), number(x))
		}
	case string:
		if s.MinLength != nil && utf8.RuneCountInString(x) < *s.MinLength {
			if *s.MinLength == 1 {
				return where + " must not be empty"
			}
			return fmt.Sprintf("%s must be at least %s long", where, plural(*s.MinLength, "character"))
		}
	}
	return ""
}

func explainObject(s *jsonschema.Schema, obj map[string]any, where string) string {
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			return strconv.Quote(name) + " is required"
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		prop, known := s.Properties[k]
		field := strconv.Quote(k)
		if where != "" {
			field = fmt.Sprintf("%s entry %q", where, k)
		}
		switch {
		case known:
		case forbids(s.AdditionalProperties):
			return fmt.Sprintf("unknown field %q; the fields are %s", k, strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", "))
		default:
			prop = s.AdditionalProperties
		}
		if msg := explainAt(prop, obj[k], field); msg != "" {
			return msg
		}
	}
	return ""
}

// forbids reports whether s, an additionalProperties schema, allows no
// other property: our schemas use "not" only as falseSchema ({"not": {}}).
func forbids(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil
}

// explainType reports a JSON type that is not s.Type ("integer" accepts
// integral numbers only, as JSON Schema says).
func explainType(s *jsonschema.Schema, v any, where string) string {
	if s.Type == "" {
		return ""
	}
	ok := false
	switch x := v.(type) {
	case nil:
		ok = s.Type == "null"
	case bool:
		ok = s.Type == "boolean"
	case string:
		ok = s.Type == "string"
	case []any:
		ok = s.Type == "array"
	case map[string]any:
		ok = s.Type == "object"
	case float64:
		ok = s.Type == "number" || s.Type == "integer" && x == math.Trunc(x)
	}
	if ok {
		return ""
	}
	want := map[string]string{"array": "an array", "object": "an object", "integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean"}[s.Type]
	if s.Type == "array" && s.Items != nil && s.Items.Type == "string" {
		want = "an array of strings"
	}
	return fmt.Sprintf("%s must be %s, not %s", where, cmp.Or(want, s.Type), describe(v))
}

// describe names a JSON value's type, with the value when it is short.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean (" + strconv.FormatBool(x) + ")"
	case float64:
		return "a number (" + number(x) + ")"
	case string:
		if utf8.RuneCountInString(x) <= 20 {
			return "a string (" + strconv.Quote(x) + ")"
		}
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
