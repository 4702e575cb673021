package synth

import "fmt"

// OptionError reports an option or puzzle that Render cannot work with,
// naming the field and why, so callers can tell bad requests from failures
// further down (fonts, encoders).
type OptionError struct {
	Field  string
	Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("synth: option %s: %s", e.Field, e.Reason)
}
