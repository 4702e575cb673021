package synth

import "math"

// Pose places the page in front of the camera (angles in degrees). The grid
// is a unit square centred on the origin of the page plane; the steps apply
// in the order of the fields.
type Pose struct {
	Rotate   float64 // turn in the page's plane, clockwise as seen in the photo
	Tilt     float64 // tilt about an axis in the page plane…
	TiltAxis float64 // …pointing this far from the page's x axis
	Distance float64 // grid sides from a pinhole camera
	HFOV     float64 // the camera's horizontal field of view
	ShiftX   float64 // pixels the photo is shifted (an optical centre off
	ShiftY   float64 // the middle of the picture)
}

// mat3 is a row-major 3×3 matrix.
type mat3 [9]float64

func (a mat3) mul(b mat3) mat3 {
	var c mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[3*i+j] = a[3*i]*b[j] + a[3*i+1]*b[3+j] + a[3*i+2]*b[6+j]
		}
	}
	return c
}

// apply maps (x, y) through the homography a; ok is false for points on or
// behind the camera's plane.
func (a mat3) apply(x, y float64) (px, py float64, ok bool) {
	w := a[6]*x + a[7]*y + a[8]
	if w <= 1e-9 {
		return 0, 0, false
	}
	return (a[0]*x + a[1]*y + a[2]) / w, (a[3]*x + a[4]*y + a[5]) / w, true
}

func (a mat3) det() float64 {
	return a[0]*(a[4]*a[8]-a[5]*a[7]) - a[1]*(a[3]*a[8]-a[5]*a[6]) + a[2]*(a[3]*a[7]-a[4]*a[6])
}

// inv returns the inverse of a; callers only invert camera homographies,
// which are never singular.
func (a mat3) inv() mat3 {
	d := a.det()
	return mat3{
		(a[4]*a[8] - a[5]*a[7]) / d, (a[2]*a[7] - a[1]*a[8]) / d, (a[1]*a[5] - a[2]*a[4]) / d,
		(a[5]*a[6] - a[3]*a[8]) / d, (a[0]*a[8] - a[2]*a[6]) / d, (a[2]*a[3] - a[0]*a[5]) / d,
		(a[3]*a[7] - a[4]*a[6]) / d, (a[1]*a[6] - a[0]*a[7]) / d, (a[0]*a[4] - a[1]*a[3]) / d,
	}
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }

// homography returns the map from the page plane, in grid units with the
// grid's centre at the origin, to pixels of a width×height photo.
func (p Pose) homography(width, height int) mat3 {
	rot := p.rotation()
	// Page point (x, y, 0) lands at rot·(x, y, 0) + (0, 0, d): the columns
	// r1, r2 and t of [r1 r2 t] form the plane-to-camera homography.
	ext := mat3{rot[0], rot[1], 0, rot[3], rot[4], 0, rot[6], rot[7], p.Distance}
	return p.intrinsics(width, height).mul(ext)
}

// rotation returns the rotation from page to camera coordinates: the
// in-plane turn, then the tilt.
func (p Pose) rotation() mat3 {
	// Rotation about a unit axis (ux, uy, 0) in the page plane (Rodrigues).
	t, a := rad(p.Tilt), rad(p.TiltAxis)
	ux, uy := math.Cos(a), math.Sin(a)
	c, s := math.Cos(t), math.Sin(t)
	tilt := mat3{
		c + ux*ux*(1-c), ux * uy * (1 - c), uy * s,
		uy * ux * (1 - c), c + uy*uy*(1-c), -ux * s,
		-uy * s, ux * s, c,
	}
	r := rad(p.Rotate)
	spin := mat3{math.Cos(r), -math.Sin(r), 0, math.Sin(r), math.Cos(r), 0, 0, 0, 1}
	return tilt.mul(spin)
}

// intrinsics returns the camera matrix of a width×height photo.
func (p Pose) intrinsics(width, height int) mat3 {
	f := focal(p.HFOV, width)
	return mat3{f, 0, float64(width)/2 + p.ShiftX, 0, f, float64(height)/2 + p.ShiftY, 0, 0, 1}
}

// focal is the focal length in pixels for a horizontal field of view.
func focal(hfov float64, width int) float64 {
	return float64(width) / 2 / math.Tan(rad(hfov)/2)
}

// gridCorners returns the grid's corners TL, TR, BR, BL in photo pixels.
func gridCorners(h mat3) (pts [4][2]float64, ok bool) {
	src := [4][2]float64{{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}}
	for i, q := range src {
		x, y, good := h.apply(q[0], q[1])
		if !good {
			return pts, false
		}
		pts[i] = [2]float64{x, y}
	}
	return pts, true
}

// quadSides returns the shortest and the mean side length of a quadrilateral.
func quadSides(q [4][2]float64) (shortest, mean float64) {
	shortest = math.Inf(1)
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		d := math.Hypot(q[j][0]-q[i][0], q[j][1]-q[i][1])
		mean += d / 4
		shortest = math.Min(shortest, d)
	}
	return shortest, mean
}

// quadBounds returns the bounding box of a quadrilateral.
func quadBounds(q [4][2]float64) (minX, minY, maxX, maxY float64) {
	minX, minY = math.Inf(1), math.Inf(1)
	maxX, maxY = math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	return
}
