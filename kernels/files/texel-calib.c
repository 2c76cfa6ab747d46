/* gst-texel: camera calibration files (texel-calib.h), parsed with libyaml.
 *
 * The events are counted first (check_complexity: depth and nodes
 * capped), then the document is loaded whole (yaml_parser_load) and
 * walked at fixed depth: the root mapping, its matrices (mappings of rows,
 * cols, data and OpenCV's dt) and their data sequences. Nothing recurses, so
 * anchors, aliases and deep nesting in a hostile file cost nothing more than
 * libyaml's own limits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-calib.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

/* Longest number we read ("-1.2345678901234567e+300" and more). */
#define NUMBER_MAX 64

typedef struct
{
  yaml_document_t *doc;
  char *error;
  size_t error_size;
} Reader;

static int fail (Reader *r, const char *field, const yaml_node_t *node,
                 const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

/* Formats "field (line N): message" into the error buffer; returns -1. */
static int
fail (Reader *r, const char *field, const yaml_node_t *node, const char *format,
      ...)
{
  char message[256];
  va_list args;

  va_start (args, format);
  vsnprintf (message, sizeof (message), format, args);
  va_end (args);
  if (node != NULL)
    snprintf (r->error, r->error_size, "%s (line %lu): %s", field,
              (unsigned long)node->start_mark.line + 1, message);
  else
    snprintf (r->error, r->error_size, "%s: %s", field, message);
  return -1;
}

/* The scalar's text, or NULL when @node is no scalar. */
static const char *
scalar (const yaml_node_t *node)
{
  if (node == NULL || node->type != YAML_SCALAR_NODE)
    return NULL;
  return (const char *)node->data.scalar.value;
}

/* The value of @key in mapping @map, or NULL. */
static yaml_node_t *
lookup (Reader *r, const yaml_node_t *map, const char *key)
{
  yaml_node_pair_t *pair;

  if (map == NULL || map->type != YAML_MAPPING_NODE)
    return NULL;
  for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top;
       pair++)
    {
      const char *k = scalar (yaml_document_get_node (r->doc, pair->key));

      if (k != NULL && strcmp (k, key) == 0)
        return yaml_document_get_node (r->doc, pair->value);
    }
  return NULL;
}

/* A finite number (YAML's .nan and .inf, and strtod's nan and inf, are
 * not). */
static int
read_number (Reader *r, const char *field, const yaml_node_t *node,
             double *value)
{
  const char *text = scalar (node);
  char buf[NUMBER_MAX], *end;

  if (text == NULL)
    return fail (r, field, node, "a number expected");
  if (node->data.scalar.length == 0 || node->data.scalar.length >= NUMBER_MAX)
    return fail (r, field, node, "'%.32s' is not a number", text);
  memcpy (buf, text, node->data.scalar.length + 1);
  errno = 0;
  *value = strtod (buf, &end);
  if (end == buf || *end != '\0')
    return fail (r, field, node, "'%s' is not a number", buf);
  if (!isfinite (*value) || errno == ERANGE)
    return fail (r, field, node, "'%s' is not a finite number", buf);
  return 0;
}

static int
read_int (Reader *r, const char *field, const yaml_node_t *node, int *value)
{
  const char *text = scalar (node);
  char *end;
  long v;

  if (text == NULL)
    return fail (r, field, node, "an integer expected");
  errno = 0;
  v = strtol (text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v > 1000000000L
      || v < -1000000000L)
    return fail (r, field, node, "'%.32s' is not an integer", text);
  *value = (int)v;
  return 0;
}

/* A matrix as both formats write it: a mapping of rows, cols and data (a
 * sequence of rows x cols numbers), OpenCV's dt d or f. Reads its shape
 * and checks that data holds that many entries. */
static int
read_matrix_shape (Reader *r, const char *field, const yaml_node_t *node,
                   int *rows, int *cols, const yaml_node_t **data)
{
  const yaml_node_t *rv = lookup (r, node, "rows");
  const yaml_node_t *cv = lookup (r, node, "cols");
  const yaml_node_t *dt = lookup (r, node, "dt");
  long n;

  if (node == NULL || node->type != YAML_MAPPING_NODE)
    return fail (r, field, node, "a matrix (rows, cols, data) expected");
  if (rv == NULL || cv == NULL)
    return fail (r, field, node, "rows or cols missing");
  if (read_int (r, field, rv, rows) != 0 || read_int (r, field, cv, cols) != 0)
    return -1;
  if (*rows <= 0 || *cols <= 0)
    return fail (r, field, node, "size %dx%d is empty", *rows, *cols);
  if (dt != NULL
      && (scalar (dt) == NULL
          || (strcmp (scalar (dt), "d") != 0
              && strcmp (scalar (dt), "f") != 0)))
    return fail (r, field, dt, "element type dt must be d or f");
  *data = lookup (r, node, "data");
  if (*data == NULL || (*data)->type != YAML_SEQUENCE_NODE)
    return fail (r, field, node, "data (a sequence of numbers) missing");
  n = (*data)->data.sequence.items.top - (*data)->data.sequence.items.start;
  if ((long)*rows * *cols != n)
    return fail (r, field, *data, "%dx%d needs %ld values, data has %ld", *rows,
                 *cols, (long)*rows * *cols, n);
  return 0;
}

/* The @n numbers of sequence @data. */
static int
read_matrix_values (Reader *r, const char *field, const yaml_node_t *data,
                    double *values, int n)
{
  yaml_node_item_t *item = data->data.sequence.items.start;
  int i;

  for (i = 0; i < n; i++, item++)
    {
      char name[96];

      snprintf (name, sizeof (name), "%s data[%d]", field, i);
      if (read_number (r, name, yaml_document_get_node (r->doc, *item),
                       &values[i])
          != 0)
        return -1;
    }
  return 0;
}

/* The left 3x3 of a camera or projection matrix in @v (@stride values a
 * row): [fx, 0, cx; 0, fy, cy; 0, 0, 1] with fx, fy positive. */
static int
check_intrinsics (Reader *r, const char *field, const yaml_node_t *node,
                  const double *v, int stride, double m[3][3])
{
  int i, j;

  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      m[i][j] = v[i * stride + j];
  if (!(m[0][0] > 0.0))
    return fail (r, field, node, "focal length fx is %g (must be positive)",
                 m[0][0]);
  if (!(m[1][1] > 0.0))
    return fail (r, field, node, "focal length fy is %g (must be positive)",
                 m[1][1]);
  if (m[0][1] != 0.0)
    return fail (r, field, node, "skew %g not supported (must be 0)", m[0][1]);
  if (m[1][0] != 0.0 || m[2][0] != 0.0 || m[2][1] != 0.0 || m[2][2] != 1.0)
    return fail (r, field, node,
                 "rows 2 and 3 must be [0, fy, cy] and "
                 "[0, 0, 1]");
  return 0;
}

/* Matrix @field of @root, @rows x @cols, into @v. Returns 1 when the file
 * has it, 0 when not, -1 on error. */
static int
read_fixed_matrix (Reader *r, const yaml_node_t *root, const char *field,
                   int want_rows, int want_cols, double *v,
                   const yaml_node_t **node)
{
  const yaml_node_t *data;
  int rows, cols;

  *node = lookup (r, root, field);
  if (*node == NULL)
    return 0;
  if (read_matrix_shape (r, field, *node, &rows, &cols, &data) != 0)
    return -1;
  if (rows != want_rows || cols != want_cols)
    return fail (r, field, *node, "must be %dx%d, is %dx%d", want_rows,
                 want_cols, rows, cols);
  if (read_matrix_values (r, field, data, v, rows * cols) != 0)
    return -1;
  return 1;
}

static int
read_camera_matrix (Reader *r, const yaml_node_t *root, TexelCalibration *calib)
{
  static const char *field = "camera_matrix";
  const yaml_node_t *node;
  double v[9];
  int has = read_fixed_matrix (r, root, field, 3, 3, v, &node);

  if (has < 0)
    return -1;
  if (has == 0)
    return fail (r, field, NULL, "missing");
  return check_intrinsics (r, field, node, v, 3, calib->camera_matrix);
}

/* ROS's R: any non-singular 3x3 (initUndistortRectifyMap inverts P R);
 * the identity where absent. */
static int
read_rectification (Reader *r, const yaml_node_t *root, TexelCalibration *calib)
{
  static const char *field = "rectification_matrix";
  const yaml_node_t *node;
  double v[9], det;
  int has = read_fixed_matrix (r, root, field, 3, 3, v, &node), i;

  for (i = 0; i < 9; i++)
    calib->rectification[i / 3][i % 3] = has > 0 ? v[i] : (i % 4 == 0);
  calib->has_rectification = has > 0;
  if (has <= 0)
    return has;
  det = v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6])
        + v[2] * (v[3] * v[7] - v[4] * v[6]);
  if (!(fabs (det) > 1e-9))
    return fail (r, field, node, "singular (determinant %g)", det);
  return 0;
}

/* ROS's P (3x4): its left 3x3 is the rectified view's camera; all zeros
 * (an uncalibrated camera's camera_info) counts as absent. */
static int
read_projection (Reader *r, const yaml_node_t *root, TexelCalibration *calib)
{
  static const char *field = "projection_matrix";
  const yaml_node_t *node;
  double v[12];
  int has = read_fixed_matrix (r, root, field, 3, 4, v, &node), i, zero = 1;

  calib->has_projection = 0;
  if (has <= 0)
    return has;
  for (i = 0; i < 12; i++)
    zero &= v[i] == 0.0;
  if (zero)
    return 0;
  if (check_intrinsics (r, field, node, v, 4, calib->projection) != 0)
    return -1;
  calib->has_projection = 1;
  return 0;
}

static int
read_size (Reader *r, const yaml_node_t *root, const char *field, int *value)
{
  const yaml_node_t *node = lookup (r, root, field);

  *value = 0;
  if (node == NULL)
    return 0;
  if (read_int (r, field, node, value) != 0)
    return -1;
  if (*value <= 0)
    return fail (r, field, node, "must be positive, is %d", *value);
  return 0;
}

/* ROS's distortion_model, and the coefficient counts it has. */
static int
read_model (Reader *r, const yaml_node_t *root, TexelCalibration *calib)
{
  static const char *field = "distortion_model";
  const yaml_node_t *node = lookup (r, root, field);
  const char *name = scalar (node);
  const yaml_node_t *coefs = lookup (r, root, "distortion_coefficients");
  int n = calib->n_distortion, ok;

  calib->format = node != NULL ? TEXEL_CALIB_ROS : TEXEL_CALIB_OPENCV;
  calib->model = TEXEL_WARP_MODEL_NONE;
  if (node == NULL)
    return 0;
  if (name == NULL)
    return fail (r, field, node, "a name expected");
  if (strcmp (name, "plumb_bob") == 0)
    {
      calib->model = TEXEL_WARP_MODEL_PINHOLE;
      ok = n == 0 || n == 4 || n == 5;
    }
  else if (strcmp (name, "rational_polynomial") == 0)
    {
      calib->model = TEXEL_WARP_MODEL_PINHOLE;
      ok = n == 0 || n == 8 || n == 12 || n == 14;
    }
  else if (strcmp (name, "equidistant") == 0)
    {
      calib->model = TEXEL_WARP_MODEL_FISHEYE;
      ok = n == 0 || n == 4;
    }
  else
    {
      return fail (r, field, node,
                   "unknown model '%.32s' (plumb_bob, "
                   "rational_polynomial or equidistant)",
                   name);
    }
  if (!ok)
    return fail (r, "distortion_coefficients", coefs,
                 "%d coefficients do "
                 "not fit distortion_model %s",
                 n, name);
  return 0;
}

static int
read_distortion (Reader *r, const yaml_node_t *root, TexelCalibration *calib)
{
  static const char *field = "distortion_coefficients";
  const yaml_node_t *node = lookup (r, root, field), *data;
  int rows, cols, n;

  calib->n_distortion = 0;
  if (node == NULL)
    return 0;
  if (read_matrix_shape (r, field, node, &rows, &cols, &data) != 0)
    return -1;
  if (rows != 1 && cols != 1)
    return fail (r, field, node, "must be a vector (1xN or Nx1), is %dx%d",
                 rows, cols);
  n = rows * cols;
  if (n != 4 && n != 5 && n != 8 && n != 12 && n != 14)
    return fail (r, field, node,
                 "%d coefficients (4, 5, 8, 12 or 14 "
                 "expected)",
                 n);
  if (read_matrix_values (r, field, data, calib->distortion, n) != 0)
    return -1;
  calib->n_distortion = n;
  return 0;
}

/* "YAML syntax (line N): problem, context" from @parser; returns -1. */
static int
syntax_error (Reader *r, const yaml_parser_t *parser)
{
  snprintf (r->error, r->error_size, "YAML syntax (line %lu): %s%s%s",
            (unsigned long)parser->problem_mark.line + 1,
            parser->problem ? parser->problem : "malformed",
            parser->context ? ", " : "",
            parser->context ? parser->context : "");
  return -1;
}

/* Counts the events of @text before anything is built: a file nested
 * deeper than TEXEL_CALIB_MAX_DEPTH or with more than
 * TEXEL_CALIB_MAX_NODES nodes fails at the first event beyond the limit
 * (libyaml scans lazily, so the rest of it is never read). */
static int
check_complexity (Reader *r, const unsigned char *text, size_t size)
{
  yaml_parser_t parser;
  yaml_event_t event;
  long depth = 0, nodes = 0;
  int ret = 0, done = 0;

  if (!yaml_parser_initialize (&parser))
    return fail (r, "file", NULL, "cannot initialise the YAML parser");
  yaml_parser_set_input_string (&parser, text, size);
  while (!done && ret == 0)
    {
      if (!yaml_parser_parse (&parser, &event))
        {
          ret = syntax_error (r, &parser);
          break;
        }
      switch (event.type)
        {
          case YAML_SEQUENCE_START_EVENT:
          case YAML_MAPPING_START_EVENT:
            depth++;
            /* fall through */
          case YAML_SCALAR_EVENT:
          case YAML_ALIAS_EVENT:
            nodes++;
            break;
          case YAML_SEQUENCE_END_EVENT:
          case YAML_MAPPING_END_EVENT:
            depth--;
            break;
          case YAML_STREAM_END_EVENT:
            done = 1;
            break;
          default:
            break;
        }
      if (depth > TEXEL_CALIB_MAX_DEPTH)
        ret = fail (r, "file", NULL, "nested deeper than %d levels (line %lu)",
                    TEXEL_CALIB_MAX_DEPTH,
                    (unsigned long)event.start_mark.line + 1);
      else if (nodes > TEXEL_CALIB_MAX_NODES)
        ret = fail (r, "file", NULL, "more than %d YAML nodes (line %lu)",
                    TEXEL_CALIB_MAX_NODES,
                    (unsigned long)event.start_mark.line + 1);
      yaml_event_delete (&event);
    }
  yaml_parser_delete (&parser);
  return ret;
}

int
texel_calib_parse (const char *data, size_t size, TexelCalibration *calib,
                   char *error, size_t error_size)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root;
  Reader r = { &doc, error, error_size };
  unsigned char *text;
  int ret = -1;

  memset (calib, 0, sizeof (*calib));
  if (error_size > 0)
    error[0] = '\0';
  if (size > TEXEL_CALIB_MAX_SIZE)
    return fail (&r, "file", NULL,
                 "%lu bytes, more than %d (no calibration "
                 "file is that large)",
                 (unsigned long)size, TEXEL_CALIB_MAX_SIZE);
  /* OpenCV's "%YAML:1.0" is no YAML directive: read it as a comment (the
   * same length, so that line numbers stay). */
  text = malloc (size > 0 ? size : 1);
  if (text == NULL)
    return fail (&r, "file", NULL, "out of memory");
  memcpy (text, data, size);
  if (size >= 6 && memcmp (text, "%YAML:", 6) == 0)
    text[0] = '#';
  if (check_complexity (&r, text, size) != 0)
    {
      free (text);
      return -1;
    }

  if (!yaml_parser_initialize (&parser))
    {
      free (text);
      return fail (&r, "file", NULL, "cannot initialise the YAML parser");
    }
  yaml_parser_set_input_string (&parser, text, size);
  if (!yaml_parser_load (&parser, &doc))
    {
      syntax_error (&r, &parser);
      yaml_parser_delete (&parser);
      free (text);
      return -1;
    }

  root = yaml_document_get_root_node (&doc);
  if (root == NULL)
    fail (&r, "file", NULL, "empty (no YAML document)");
  else if (root->type != YAML_MAPPING_NODE)
    fail (&r, "file", root, "a mapping of calibration fields expected");
  else if (read_size (&r, root, "image_width", &calib->width) == 0
           && read_size (&r, root, "image_height", &calib->height) == 0
           && read_camera_matrix (&r, root, calib) == 0
           && read_distortion (&r, root, calib) == 0
           && read_model (&r, root, calib) == 0
           && read_rectification (&r, root, calib) == 0
           && read_projection (&r, root, calib) == 0)
    {
      if ((calib->width == 0) != (calib->height == 0))
        fail (&r, calib->width ? "image_height" : "image_width", NULL,
              "missing (the other size is given)");
      else
        ret = 0;
    }
  yaml_document_delete (&doc);
  yaml_parser_delete (&parser);
  free (text);
  return ret;
}

int
texel_calib_set_distortion (TexelCamera *camera, TexelWarpModel model,
                            const double *d, int n, const char **error)
{
  int i;

  memset (camera->k, 0, sizeof (camera->k));
  memset (camera->p, 0, sizeof (camera->p));
  if (model == TEXEL_WARP_MODEL_FISHEYE)
    {
      if (n != 0 && n != 4)
        {
          *error = "distortion: a fisheye has 4 coefficients (k1, k2, k3, k4)";
          return -1;
        }
      for (i = 0; i < n; i++)
        camera->k[i] = d[i];
      return 0;
    }
  if (n != 0 && n != 4 && n != 5 && n != 8 && n != 12 && n != 14)
    {
      *error = "distortion: a pinhole lens has 4, 5 or 8 coefficients (k1, "
               "k2, p1, p2[, k3[, k4, k5, k6]])";
      return -1;
    }
  for (i = 8; i < n; i++)
    {
      if (d[i] != 0.0)
        {
          *error = "distortion: thin prism and tilt coefficients (s1..s4, "
                   "tau) are not supported";
          return -1;
        }
    }
  if (n >= 4)
    {
      camera->k[0] = d[0];
      camera->k[1] = d[1];
      camera->p[0] = d[2];
      camera->p[1] = d[3];
    }
  if (n >= 5)
    camera->k[2] = d[4];
  for (i = 5; i < n && i < 8; i++)
    camera->k[i - 2] = d[i];
  return 0;
}

int
texel_calib_camera (const TexelCalibration *calib, TexelWarpModel model,
                    TexelCamera *camera, char *error, size_t error_size)
{
  const char *why = NULL;

  memset (camera, 0, sizeof (*camera));
  camera->fx = calib->camera_matrix[0][0];
  camera->fy = calib->camera_matrix[1][1];
  camera->cx = calib->camera_matrix[0][2];
  camera->cy = calib->camera_matrix[1][2];
  camera->cal_width = calib->width;
  camera->cal_height = calib->height;
  if (texel_calib_set_distortion (camera, model, calib->distortion,
                                  calib->n_distortion, &why)
      != 0)
    {
      /* why starts with "distortion: ". */
      snprintf (error, error_size,
                "distortion_coefficients: %d coefficients, "
                "%s",
                calib->n_distortion, why + strlen ("distortion: "));
      return -1;
    }
  return 0;
}
