// Package cvenv sets up OpenCV's environment for sudokuar: it keeps
// OpenCV's own log lines off the user's terminal, and says which video
// backends this OpenCV has.
//
// OpenCV writes warnings straight to stderr (`[ WARN:0@0.06] global
// cap_gstreamer.cpp ... GStreamer warning: ...`), and its FFmpeg backend
// lets FFmpeg print its errors (`moov atom not found`) when a video cannot
// be opened. sudokuar reports every such failure in its own words, so
// these lines only confuse. The package's init function turns both logs
// off before any other package can call OpenCV: package vision imports it,
// and every part of sudokuar that calls OpenCV imports vision. OpenCV reads
// its log level when the library is loaded, so it is set through
// cv::utils::logging; FFmpeg's is read from OPENCV_FFMPEG_LOGLEVEL when the
// first video is opened.
//
// A variable the user has set is left alone, so `OPENCV_LOG_LEVEL=DEBUG
// sudokuar ...` still shows everything when debugging.
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
