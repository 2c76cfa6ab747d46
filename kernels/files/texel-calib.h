/* gst-texel: camera calibration files for texelwarp.
 *
 * Reads the YAML that calibration tools write, from a memory buffer (so
 * that a fuzzer can feed it), with libyaml:
 *
 *  - OpenCV FileStorage (cv::FileStorage, the calibration sample):
 *        %YAML:1.0
 *        ---
 *        image_width: 640
 *        image_height: 480
 *        camera_matrix: !!opencv-matrix
 *           rows: 3
 *           cols: 3
 *           dt: d
 *           data: [ fx, 0., cx, 0., fy, cy, 0., 0., 1. ]
 *        distortion_coefficients: !!opencv-matrix
 *           rows: 1
 *           cols: 5
 *           dt: d
 *           data: [ k1, k2, p1, p2, k3 ]
 *    (the "%YAML:1.0" line, which is not YAML, is read as a comment);
 *  - ROS camera_info (camera_calibration_parsers):
 *        image_width: 640
 *        image_height: 480
 *        camera_matrix: {rows: 3, cols: 3, data: [...]}
 *        distortion_model: plumb_bob | rational_polynomial | equidistant
 *        distortion_coefficients: {rows: 1, cols: 5, data: [...]}
 *        rectification_matrix: {rows: 3, cols: 3, data: [...]}
 *        projection_matrix: {rows: 3, cols: 4, data: [...]}
 *
 * rectification_matrix (R) and projection_matrix (P) are read from either
 * format where present: ROS's image_proc rectifies with OpenCV's
 * initUndistortRectifyMap (K, D, R, P), and texelwarp does the same by
 * default (P's left 3x3 as the new camera). A P of zeros (what drivers
 * write before calibration) counts as absent. Other keys (camera_name,
 * avg_reprojection_error, ...) are ignored. Every error message starts
 * with the field at fault and gives its line.
 *
 * Hostile input: texel_calib_parse refuses more than TEXEL_CALIB_MAX_SIZE
 * bytes, nesting deeper than TEXEL_CALIB_MAX_DEPTH and more than
 * TEXEL_CALIB_MAX_NODES nodes, counted on libyaml's events before the
 * document is built, so that such a file fails after reading at most
 * that much of it (libyaml's time grows with the square of the nesting).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEXEL_CALIB_H
#define TEXEL_CALIB_H

#include <stddef.h>

#include "texel-kernel.h"
#include "texel-warp.h"

TEXEL_BEGIN_DECLS

/* OpenCV's longest distortion vector: k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3 s4
 * tau_x tau_y. */
#define TEXEL_CALIB_MAX_DISTORTION 14

/* Calibration files are a few kB (a ROS camera_info ~0.6 kB, OpenCV's
 * sample with its per-view extrinsics and image points some 100 kB). */
#define TEXEL_CALIB_MAX_SIZE (1024 * 1024)
/* Both formats nest 3 deep (root, matrix, data); OpenCV files may hold a
 * few more levels in keys we ignore. */
#define TEXEL_CALIB_MAX_DEPTH 16
/* Scalars, sequences, mappings and aliases in the whole file. */
#define TEXEL_CALIB_MAX_NODES 200000

typedef enum
{
  TEXEL_CALIB_OPENCV = 0, /* no distortion_model key */
  TEXEL_CALIB_ROS         /* distortion_model given */
} TexelCalibFormat;

typedef struct
{
  TexelCalibFormat format;
  /* The lens model the file names (ROS distortion_model), or
   * TEXEL_WARP_MODEL_NONE where it names none (OpenCV). */
  TexelWarpModel model;
  double camera_matrix[3][3];
  /* In the file's order (OpenCV's): pinhole k1 k2 p1 p2 [k3 [k4 k5 k6
   * [s1 s2 s3 s4 [tau_x tau_y]]]], fisheye k1 k2 k3 k4. */
  double distortion[TEXEL_CALIB_MAX_DISTORTION];
  int n_distortion;
  int width, height; /* 0 where the file gives none */
  /* rectification_matrix R (identity where absent) and the left 3x3 of
   * projection_matrix P (has_projection 0 where absent or all zero), as
   * the file gives them, in pixels of the calibration frame. */
  double rectification[3][3];
  int has_rectification;
  double projection[3][3];
  int has_projection;
} TexelCalibration;

/* Parses @size bytes at @data. Returns 0, or -1 with a message (the field
 * first, e.g. "camera_matrix (line 5): must be 3x3, is 2x3") in @error
 * (@error_size bytes, always terminated). Checks what the file alone can
 * say is wrong: YAML syntax, missing or malformed fields, matrix sizes,
 * numbers that are not finite, a focal length that is not positive, skew
 * or a last row other than 0 0 1 (camera_matrix and projection_matrix's
 * left 3x3), sizes that are not positive, an unknown distortion model or a
 * coefficient count it does not have, a singular rectification_matrix,
 * and a file too large, too deep or with too many nodes (above). */
int texel_calib_parse (const char *data, size_t size, TexelCalibration *calib,
                       char *error, size_t error_size);

/* The camera of @calib for lens model @model (pinhole: 0, 4, 5 or 8
 * coefficients, or 12 or 14 whose thin-prism and tilt terms are 0;
 * fisheye: 0 or 4). Returns 0, or -1 with a message naming
 * distortion_coefficients. */
int texel_calib_camera (const TexelCalibration *calib, TexelWarpModel model,
                        TexelCamera *camera, char *error, size_t error_size);

/* Coefficients in OpenCV's order (as texel_calib_camera reads them) into
 * @camera's k and p for @model; returns 0, or -1 for a count the model
 * does not have (@error: a static message starting "distortion: "). */
int texel_calib_set_distortion (TexelCamera *camera, TexelWarpModel model,
                                const double *coefficients, int n,
                                const char **error);

TEXEL_END_DECLS
#endif /* TEXEL_CALIB_H */
