package synth

import (
	"errors"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// Curl bends the page like a book's page rising towards the gutter: flat
// up to a line across the page, then rolled round a cylinder whose axis
// runs along that line. Paper does not stretch, so the printed grid keeps
// its size along the page while its image is foreshortened where it turns
// and its lines bow. The zero Curl is a flat page.
type Curl struct {
	// Side is the side of the grid that curls: 0 right, 1 bottom, 2 left,
	// 3 top.
	Side int
	// Start is where the bend begins, in grid sides from the grid's
	// centre towards Side (0.5 is the grid's edge; negative values start
	// it on the far half).
	Start float64
	// Angle is how far the page has turned, in degrees, at the grid's
	// edge on Side.
	Angle float64
	// Down rolls the page away from the camera (over a table's edge)
	// instead of towards it.
	Down bool
}

// IsFlat reports whether c leaves the page flat.
func (c Curl) IsFlat() bool { return c.Angle == 0 }

// maxTurn is how far the page may turn before it ends (it would next face
// away from the camera).
const maxTurn = 80 * math.Pi / 180

// radius is the cylinder's radius in grid sides.
func (c Curl) radius() float64 {
	return math.Max(1e-3, 0.5-c.Start) / rad(c.Angle)
}

// axes returns the unit vector along which the page curls (towards Side)
// and the one across it, in page coordinates.
func (c Curl) axes() (ux, uy, vx, vy float64) {
	switch c.Side & 3 {
	case 0:
		return 1, 0, 0, 1
	case 1:
		return 0, 1, -1, 0
	case 2:
		return -1, 0, 0, -1
	}
	return 0, -1, 1, 0
}

// lift is the direction the rolled part rises: -1 towards the camera
// (page z points away from it), +1 away.
func (c Curl) lift() float64 {
	if c.Down {
		return 1
	}
	return -1
}

// surface returns the 3-D point (page coordinates, z away from the
// camera) where page point (x, y) lies once curled; ok is false beyond
// maxTurn, where the page is taken to end.
func (c Curl) surface(x, y float64) (X, Y, Z float64, ok bool) {
	if c.IsFlat() {
		return x, y, 0, true
	}
	ux, uy, vx, vy := c.axes()
	u, v := x*ux+y*uy, x*vx+y*vy
	if u <= c.Start {
		return x, y, 0, true
	}
	r := c.radius()
	th := (u - c.Start) / r
	if th > maxTurn {
		return 0, 0, 0, false
	}
	U := c.Start + r*math.Sin(th)
	Z = c.lift() * r * (1 - math.Cos(th))
	return U*ux + v*vx, U*uy + v*vy, Z, true
}

// view is a camera looking at a possibly curled page.
type view struct {
	rot  mat3 // page to camera rotation
	dist float64
	k    mat3 // intrinsics
	curl Curl
	flat mat3 // the flat page's homography (grid units to pixels)
}

func newView(p Pose, c Curl, width, height int) view {
	return view{rot: p.rotation(), dist: p.Distance, k: p.intrinsics(width, height), curl: c, flat: p.homography(width, height)}
}

// project maps page point (x, y), in grid units, to photo pixels.
func (v view) project(x, y float64) (px, py float64, ok bool) {
	if v.curl.IsFlat() {
		return v.flat.apply(x, y)
	}
	X, Y, Z, ok := v.curl.surface(x, y)
	if !ok {
		return 0, 0, false
	}
	r := v.rot
	cx := r[0]*X + r[1]*Y + r[2]*Z
	cy := r[3]*X + r[4]*Y + r[5]*Z
	cz := r[6]*X + r[7]*Y + r[8]*Z + v.dist
	if cz <= 1e-9 {
		return 0, 0, false
	}
	k := v.k
	return (k[0]*cx + k[1]*cy + k[2]*cz) / cz, (k[3]*cx + k[4]*cy + k[5]*cz) / cz, true
}

// unproject returns the page point (grid units) that photo pixel (px, py)
// sees: the nearest of the flat part and the rolled part along the ray.
func (v view) unproject(kinv mat3, px, py float64) (x, y float64, ok bool) {
	// The ray t·d from the camera, in page coordinates: A + t·B.
	dx := kinv[0]*px + kinv[1]*py + kinv[2]
	dy := kinv[3]*px + kinv[4]*py + kinv[5]
	dz := kinv[6]*px + kinv[7]*py + kinv[8]
	r := v.rot // page = rᵀ·(camera - (0, 0, dist))
	ax, ay, az := -r[6]*v.dist, -r[7]*v.dist, -r[8]*v.dist
	bx, by, bz := r[0]*dx+r[3]*dy+r[6]*dz, r[1]*dx+r[4]*dy+r[7]*dz, r[2]*dx+r[5]*dy+r[8]*dz
	c := v.curl
	ux, uy, vx, vy := c.axes()
	au, av := ax*ux+ay*uy, ax*vx+ay*vy
	bu, bv := bx*ux+by*uy, bx*vx+by*vy
	best := math.Inf(1)
	var bu0, bv0 float64
	// The flat part, z = 0, u <= Start.
	if math.Abs(bz) > 1e-12 {
		if t := -az / bz; t > 0 {
			if u := au + t*bu; u <= c.Start {
				best, bu0, bv0 = t, u, av+t*bv
			}
		}
	}
	// The rolled part: (U - Start)² + (Z - lift·r)² = r², turned 0..maxTurn.
	rr, l := c.radius(), c.lift()
	pu, pz := au-c.Start, az-l*rr
	qa := bu*bu + bz*bz
	qb := 2 * (pu*bu + pz*bz)
	qc := pu*pu + pz*pz - rr*rr
	if disc := qb*qb - 4*qa*qc; qa > 0 && disc >= 0 {
		sq := math.Sqrt(disc)
		for _, t := range []float64{(-qb - sq) / (2 * qa), (-qb + sq) / (2 * qa)} {
			if t <= 0 || t >= best {
				continue
			}
			U, Z := au+t*bu-c.Start, az+t*bz
			th := math.Atan2(U/rr, (rr-l*Z)/rr)
			if th <= 0 || th > maxTurn {
				continue
			}
			best, bu0, bv0 = t, c.Start+rr*th, av+t*bv
		}
	}
	if math.IsInf(best, 1) {
		return 0, 0, false
	}
	return bu0*ux + bv0*vx, bu0*uy + bv0*vy, true
}

// shootCurled warps the flat page into a w×h photo through v (a curled
// page): each photo pixel looks up the page point its ray meets. Off the
// page the result is 0, which the page itself never holds. The caller
// closes the Mat.
func shootCurled(src gocv.Mat, spec pageSpec, v view, w, h int) (gocv.Mat, error) {
	kinv := v.k.inv()
	mx := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	defer mx.Close()
	my := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	defer my.Close()
	xs, err := mx.DataPtrFloat32()
	if err != nil {
		return gocv.Mat{}, err
	}
	ys, err := my.DataPtrFloat32()
	if err != nil {
		return gocv.Mat{}, err
	}
	for py := 0; py < h; py++ {
		for px := 0; px < w; px++ {
			i := py*w + px
			x, y, ok := v.unproject(kinv, float64(px), float64(py))
			if !ok {
				xs[i], ys[i] = -10, -10
				continue
			}
			sx, sy := spec.pixel(x, y)
			// Page pixel (i, j) has its centre at (i+0.5, j+0.5).
			xs[i], ys[i] = float32(sx-0.5), float32(sy-0.5)
		}
	}
	out := gocv.NewMat()
	gocv.Remap(src, &out, &mx, &my, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	if out.Empty() || out.Cols() != w || out.Rows() != h {
		out.Close()
		return gocv.Mat{}, errors.New("synth: curled page: remap gave no image")
	}
	return out, nil
}

// pagePoint returns the map from a photo pixel to the page pixel it
// shows (ok false off the page), flat or curled.
func (v view) pagePoint(spec pageSpec, w, h int) func(px, py float64) (float64, float64, bool) {
	if v.curl.IsFlat() {
		inv := v.flat.mul(spec.toGrid()).inv()
		return inv.apply
	}
	kinv := v.k.inv()
	return func(px, py float64) (float64, float64, bool) {
		x, y, ok := v.unproject(kinv, px, py)
		if !ok {
			return 0, 0, false
		}
		sx, sy := spec.pixel(x, y)
		return sx, sy, true
	}
}

// gridOutline returns points along the grid's outer edge as the photo
// shows it (16 per side), for fitting the grid in view.
func (v view) gridOutline() ([][2]float64, bool) {
	var pts [][2]float64
	corners := [5][2]float64{{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}}
	steps := 1
	if !v.curl.IsFlat() {
		steps = 16
	}
	for s := 0; s < 4; s++ {
		a, b := corners[s], corners[s+1]
		for k := 0; k < steps; k++ {
			t := float64(k) / float64(steps)
			x, y, ok := v.project(a[0]+(b[0]-a[0])*t, a[1]+(b[1]-a[1])*t)
			if !ok {
				return nil, false
			}
			pts = append(pts, [2]float64{x, y})
		}
	}
	return pts, true
}

// gridVisible reports whether no part of a curled page hides the grid
// (a page rolled up towards a camera that looks at it from low enough can
// cover it): every point of a 9×9 sample of the grid must be what its own
// pixel sees.
func (v view) gridVisible() bool {
	if v.curl.IsFlat() {
		return true
	}
	kinv := v.k.inv()
	for j := 0; j <= 8; j++ {
		for i := 0; i <= 8; i++ {
			x, y := -0.5+float64(i)/8, -0.5+float64(j)/8
			px, py, ok := v.project(x, y)
			if !ok {
				return false
			}
			bx, by, ok := v.unproject(kinv, px, py)
			if !ok || math.Hypot(bx-x, by-y) > 1e-3 {
				return false
			}
		}
	}
	return true
}
