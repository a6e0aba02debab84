package outputs

// The store keeps its outputs in two queues, by creation (eviction takes
// the oldest finished one) and by finish (with one TTL for all, the head
// expires first). Both are intrusive doubly linked lists, so that deleting
// an output removes it from each in constant time: nothing stays behind
// in a queue for a timer to sweep later.

// Queue kinds, indexes into Output.links.
const (
	byCreation = iota
	byFinish
)

// link is an output's place in one queue.
type link struct {
	prev, next *Output
	in         bool
}

// queue is one intrusive list of outputs, oldest at head. Guarded by the
// store's mutex.
type queue struct {
	kind       int
	head, tail *Output
	n          int
}

func (q *queue) push(o *Output) {
	l := &o.links[q.kind]
	if l.in {
		return
	}
	*l = link{prev: q.tail, in: true}
	if q.tail != nil {
		q.tail.links[q.kind].next = o
	} else {
		q.head = o
	}
	q.tail = o
	q.n++
}

func (q *queue) remove(o *Output) {
	l := &o.links[q.kind]
	if !l.in {
		return
	}
	if l.prev != nil {
		l.prev.links[q.kind].next = l.next
	} else {
		q.head = l.next
	}
	if l.next != nil {
		l.next.links[q.kind].prev = l.prev
	} else {
		q.tail = l.prev
	}
	*l = link{}
	q.n--
}

// next is the output after o in q, or nil.
func (q *queue) next(o *Output) *Output { return o.links[q.kind].next }
