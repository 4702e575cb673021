// Package cvenv keeps OpenCV's and FFmpeg's own log lines off the user's
// terminal (sudokuar reports every failure in its own words) and says
// which video backends this OpenCV has.
//
// Its init turns both logs off before any other package calls OpenCV
// (vision imports it, and everything that calls OpenCV imports vision):
// OpenCV's through cv::utils::logging, FFmpeg's by OPENCV_FFMPEG_LOGLEVEL.
// A variable the user has set is left alone (OPENCV_LOG_LEVEL=DEBUG).
package cvenv

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include "cvenv.h"
*/
import "C"

import "os"

// ffmpegQuiet is FFmpeg's AV_LOG_QUIET, which OpenCV's FFmpeg backend
// passes on to av_log_set_level.
const ffmpegQuiet = "-8"

func init() {
	if _, set := os.LookupEnv("OPENCV_LOG_LEVEL"); !set {
		C.cvenv_silence()
	}
	if _, set := os.LookupEnv("OPENCV_FFMPEG_LOGLEVEL"); !set {
		// With cgo, os.Setenv also sets the C environment OpenCV reads.
		os.Setenv("OPENCV_FFMPEG_LOGLEVEL", ffmpegQuiet)
	}
}

// HasFFmpeg reports whether this OpenCV reads videos through FFmpeg.
func HasFFmpeg() bool { return bool(C.cvenv_has_ffmpeg()) }
