package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"slices"
	"time"
)

// chartPanel is one CDF plot: the latency distributions of several series
// measured in the same interleaved loop.
type chartPanel struct {
	title  string
	series []*series
}

// Chart geometry in pixels.
const (
	panelW, panelH = 640, 460
	marginL        = 70
	marginR        = 20
	marginT        = 60
	marginB        = 60
	headerH        = 40
)

var (
	colBackground = color.RGBA{255, 255, 255, 255}
	colAxis       = color.RGBA{40, 40, 40, 255}
	colGrid       = color.RGBA{225, 225, 225, 255}
	// Series colours by role: floor, ours, peer, peer variant.
	seriesColors = []color.RGBA{{110, 110, 110, 255}, {20, 90, 200, 255}, {210, 50, 40, 255}, {235, 140, 40, 255}}
)

// writeChart draws one CDF panel per chartPanel side by side (latency on a
// logarithmic millisecond axis, fraction of calls on the vertical axis) and
// writes it as PNG to path. Only the standard library is used.
func writeChart(path, title string, panels []chartPanel) error {
	if len(panels) == 0 {
		panels = []chartPanel{{title: "no latency measured"}}
	}
	img := image.NewRGBA(image.Rect(0, 0, panelW*len(panels), panelH+headerH))
	fill(img, img.Bounds(), colBackground)
	drawText(img, 16, 12, 2, title, colAxis)
	for i, p := range panels {
		drawPanel(img, image.Rect(i*panelW, headerH, (i+1)*panelW, headerH+panelH), p)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func drawPanel(img *image.RGBA, r image.Rectangle, p chartPanel) {
	plot := image.Rect(r.Min.X+marginL, r.Min.Y+marginT, r.Max.X-marginR, r.Max.Y-marginB)
	drawText(img, plot.Min.X, r.Min.Y+10, 2, p.title, colAxis)
	lo, hi := panelRange(p)
	xOf := func(msv float64) int {
		return plot.Min.X + int(math.Round((math.Log10(msv)-lo)/(hi-lo)*float64(plot.Dx())))
	}
	yOf := func(q float64) int { return plot.Max.Y - int(math.Round(q*float64(plot.Dy()))) }
	// Grid: 1-2-5 steps per decade, quartiles vertically.
	for e := math.Floor(lo); e <= hi; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if lv := math.Log10(v); lv < lo-1e-9 || lv > hi+1e-9 {
				continue
			}
			x := xOf(v)
			vline(img, x, plot.Min.Y, plot.Max.Y, colGrid)
			label := trimFloat(v)
			drawText(img, x-textWidth(label, 1)/2, plot.Max.Y+8, 1, label, colAxis)
		}
	}
	for _, q := range []float64{0, .25, .5, .75, 1} {
		y := yOf(q)
		hline(img, plot.Min.X, plot.Max.X, y, colGrid)
		label := fmt.Sprintf("%.2f", q)
		drawText(img, plot.Min.X-textWidth(label, 1)-6, y-3, 1, label, colAxis)
	}
	hline(img, plot.Min.X, plot.Max.X, plot.Max.Y, colAxis)
	vline(img, plot.Min.X, plot.Min.Y, plot.Max.Y, colAxis)
	xl := "latency, ms (log scale)"
	drawText(img, plot.Min.X+plot.Dx()/2-textWidth(xl, 2)/2, plot.Max.Y+28, 2, xl, colAxis)
	drawText(img, r.Min.X+8, plot.Min.Y-16, 1, "fraction of calls", colAxis)

	for i, s := range p.series {
		c := seriesColors[min(i, len(seriesColors)-1)]
		d := slices.Clone(s.d)
		slices.Sort(d)
		px, py := -1, -1
		for k, v := range d {
			x := xOf(max(toMS(v), math.Pow(10, lo)))
			y := yOf(float64(k+1) / float64(len(d)))
			if px >= 0 {
				thickLine(img, px, py, x, py, c) // step: across, then up
				thickLine(img, x, py, x, y, c)
			}
			px, py = x, y
		}
	}
	// Legends last, bottom right inside the plot, so no line crosses them.
	for i, s := range p.series {
		c := seriesColors[min(i, len(seriesColors)-1)]
		label := fmt.Sprintf("%s  p50 %s", s.name, ms(quantile(s.d, .5)))
		ly := plot.Max.Y - 16*(len(p.series)-i) - 6
		lx := plot.Max.X - textWidth(label, 1) - 30
		fill(img, image.Rect(lx-4, ly-3, plot.Max.X-4, ly+10), colBackground)
		fill(img, image.Rect(lx+textWidth(label, 1)+6, ly, lx+textWidth(label, 1)+22, ly+7), c)
		drawText(img, lx, ly, 1, label, c)
	}
}

// panelRange is the log10 millisecond range of the panel's data, widened
// to whole 1-2-5 steps.
func panelRange(p chartPanel) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range p.series {
		for _, v := range s.d {
			l := math.Log10(max(toMS(v), 1e-3))
			lo, hi = min(lo, l), max(hi, l)
		}
	}
	if math.IsInf(lo, 1) {
		return -1, 2
	}
	lo, hi = math.Floor(lo*3)/3, math.Ceil(hi*3)/3
	if hi-lo < 0.5 {
		hi = lo + 0.5
	}
	return lo, hi
}

func toMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func trimFloat(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x <= x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := y0; y <= y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

// thickLine draws a 2-pixel-wide straight line (DDA).
func thickLine(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= steps; i++ {
		x := x0 + (x1-x0)*i/steps
		y := y0 + (y1-y0)*i/steps
		img.SetRGBA(x, y, c)
		img.SetRGBA(x+1, y, c)
		img.SetRGBA(x, y+1, c)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
