#ifndef SUDOKUAR_CVENV_H
#define SUDOKUAR_CVENV_H
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
// cvenv_silence turns OpenCV's own log off.
void cvenv_silence(void);
// cvenv_has_ffmpeg reports whether OpenCV's FFmpeg video backend is there.
bool cvenv_has_ffmpeg(void);
#ifdef __cplusplus
}
#endif
#endif
