package ocr

import "github.com/sudokuar/sudokuar/models"

// PlainGo runs the embedded models as the Go backend did before goEngine:
// with gorgonia's own tensor engine. TestGoEngineReadsAsGorgonia compares
// the two.
func PlainGo() (digits, pen Classifier, err error) {
	plain := func(data []byte, channels int) (Classifier, error) {
		k, _, err := validateGraph(data)
		if err != nil {
			return nil, err
		}
		return &goClassifier{data: data, classes: k, channels: channels, graphs: map[int]*goGraph{}, plain: true}, nil
	}
	if digits, err = plain(models.Digits(), 1); err != nil {
		return nil, nil, err
	}
	first, err := plain(models.Pen(), PenViews)
	if err != nil {
		return nil, nil, err
	}
	second, err := plain(models.PenSecond(), PenViews)
	if err != nil {
		return nil, nil, err
	}
	pen, err = MeanWhereUnsure(first, PenSure(EntrySureAt), PenKindOf, second)
	return digits, pen, err
}
