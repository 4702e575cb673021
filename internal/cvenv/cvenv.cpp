#include <opencv2/core/utils/logger.hpp>
#include <opencv2/videoio/registry.hpp>
#include "cvenv.h"

void cvenv_silence(void) {
	cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
}

bool cvenv_has_ffmpeg(void) {
	try {
		return cv::videoio_registry::hasBackend(cv::CAP_FFMPEG);
	} catch (...) {
		return false;
	}
}
