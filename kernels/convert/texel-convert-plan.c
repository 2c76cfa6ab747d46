/* gst-texel: turning a conversion request into a plan.
 *
 * Everything that does not change from frame to frame is worked out here
 * once: the affine map from output to input coordinates (scaling,
 * cropping, letterboxing and the eight flips and rotations in one), the
 * colour matrix, the border values and the chroma siting.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-convert.h"

#include <string.h>

/* Normalised source coordinates (s, t) as an affine function of normalised
 * destination coordinates (u, v): s = su * u + sv * v + s1, t likewise. */
typedef struct
{
  double su, sv, s1;
  double tu, tv, t1;
} DirectionMap;

static const DirectionMap direction_maps[] = {
  /* s = u, t = v */
  [TEXEL_DIRECTION_IDENTITY] = { 1, 0, 0, 0, 1, 0 },
  /* s = v, t = 1 - u: clockwise */
  [TEXEL_DIRECTION_90R] = { 0, 1, 0, -1, 0, 1 },
  /* s = 1 - u, t = 1 - v */
  [TEXEL_DIRECTION_180] = { -1, 0, 1, 0, -1, 1 },
  /* s = 1 - v, t = u: counter-clockwise */
  [TEXEL_DIRECTION_90L] = { 0, -1, 1, 1, 0, 0 },
  /* s = 1 - u, t = v */
  [TEXEL_DIRECTION_HORIZ] = { -1, 0, 1, 0, 1, 0 },
  /* s = u, t = 1 - v */
  [TEXEL_DIRECTION_VERT] = { 1, 0, 0, 0, -1, 1 },
  /* s = v, t = u: transposition */
  [TEXEL_DIRECTION_UL_LR] = { 0, 1, 0, 1, 0, 0 },
  /* s = 1 - v, t = 1 - u: anti-transposition */
  [TEXEL_DIRECTION_UR_LL] = { 0, -1, 1, -1, 0, 1 },
};

#define N_DIRECTIONS                                                           \
  ((int)(sizeof (direction_maps) / sizeof (direction_maps[0])))

/* Checks @config against the image sizes; returns NULL or why not. */
static const char *
validate (const TexelConvertConfig *config, TexelFormat in_format, int in_width,
          int in_height, TexelFormat out_format, int out_width, int out_height)
{
  if (texel_format_desc (in_format) == NULL)
    return "unknown input format";
  if (texel_format_desc (out_format) == NULL)
    return "unknown output format";
  if (in_width <= 0 || in_height <= 0)
    return "empty input image";
  if (out_width <= 0 || out_height <= 0)
    return "empty output image";
  if (config->src_w <= 0 || config->src_h <= 0)
    return "empty source rectangle";
  if (config->src_x < 0 || config->src_y < 0
      || config->src_x > in_width - config->src_w
      || config->src_y > in_height - config->src_h)
    return "source rectangle outside the input image";
  if (config->dst_w <= 0 || config->dst_h <= 0)
    return "empty destination rectangle";
  if (config->dst_x < 0 || config->dst_y < 0
      || config->dst_x > out_width - config->dst_w
      || config->dst_y > out_height - config->dst_h)
    return "destination rectangle outside the output image";
  if ((int)config->direction < 0 || (int)config->direction >= N_DIRECTIONS)
    return "unknown direction";
  if ((int)config->method < TEXEL_METHOD_NEAREST
      || (int)config->method > TEXEL_METHOD_BICUBIC)
    return "unknown scaling method";
  return NULL;
}

/* Output luma (X, Y) -> u = (X - dst_x) / dst_w, v = (Y - dst_y) / dst_h
 * -> (s, t) by the direction -> sx = src_x + s * src_w, sy likewise,
 * folded into one affine map. */
static void
build_map (const TexelConvertConfig *config, double map[2][3])
{
  const DirectionMap *d = &direction_maps[config->direction];
  int k;

  /* Scale factors divided last, so that they are exact whenever the
   * rectangles have the same size (1:1 conversions then map pixel centres
   * exactly onto pixel centres). */
  map[0][0] = config->src_w * d->su / config->dst_w;
  map[0][1] = config->src_w * d->sv / config->dst_h;
  map[0][2] = config->src_x + config->src_w * d->s1;
  map[1][0] = config->src_h * d->tu / config->dst_w;
  map[1][1] = config->src_h * d->tv / config->dst_h;
  map[1][2] = config->src_y + config->src_h * d->t1;
  /* u and v start at the rectangle's corner, not at X = Y = 0. */
  for (k = 0; k < 2; k++)
    map[k][2] -= map[k][0] * config->dst_x + map[k][1] * config->dst_y;
}

/* Normalised code of zero chroma (128 at 8 bits, 512 at 10 bits). */
static float
neutral_chroma (const TexelFormatDesc *desc)
{
  return (float)((double)(128 << (desc->bits - 8))
                 / (double)((1 << desc->bits) - 1));
}

static double
clamp01 (double v)
{
  return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

/* The border colour (R'G'B'A) in the output's normalised codes. */
static void
encode_border (const TexelConvertConfig *config, const TexelFormatDesc *out,
               float border[TEXEL_MAX_COMPONENTS])
{
  /* An RGB input decodes as the identity, so this "conversion" from RGB
   * is the output's encoding alone. */
  static const TexelColorimetry rgb_color = { TEXEL_MATRIX_RGB, 1, 0, 0 };
  double encode[3][4];
  int k, c;

  texel_color_matrix (texel_format_desc (TEXEL_FORMAT_RGBA), &rgb_color, out,
                      &config->out_color, encode);
  for (k = 0; k < 3; k++)
    {
      double v = encode[k][3];

      for (c = 0; c < 3; c++)
        v += encode[k][c] * clamp01 (config->border_rgba[c]);
      border[k] = (float)clamp01 (v);
    }
  border[3] = (float)clamp01 (config->border_rgba[3]);
}

int
texel_convert_plan_init (TexelConvertPlan *plan,
                         const TexelConvertConfig *config,
                         TexelFormat in_format, int in_width, int in_height,
                         TexelFormat out_format, int out_width, int out_height,
                         const char **error)
{
  static const TexelColorimetry rgb_full = { TEXEL_MATRIX_RGB, 1, 0, 0 };
  const char *why;
  int k, c;

  memset (plan, 0, sizeof (*plan));
  why = validate (config, in_format, in_width, in_height, out_format, out_width,
                  out_height);
  if (why != NULL)
    {
      if (error != NULL)
        *error = why;
      return -1;
    }

  plan->in = *texel_format_desc (in_format);
  plan->out = *texel_format_desc (out_format);
  if (config->bayer != NULL
      && texel_bayer_plan_init (&plan->bayer, &plan->in, config->bayer, error)
             != 0)
    return -1;
  /* Grey-world statistics of the picture the output shows. */
  plan->bayer.awb_x0 = config->src_x;
  plan->bayer.awb_y0 = config->src_y;
  plan->bayer.awb_x1 = config->src_x + config->src_w;
  plan->bayer.awb_y1 = config->src_y + config->src_h;
  plan->in_width = in_width;
  plan->in_height = in_height;
  plan->out_width = out_width;
  plan->out_height = out_height;
  plan->method = config->method;

  build_map (config, plan->map);
  for (k = 0; k < 2; k++)
    for (c = 0; c < 3; c++)
      plan->map_f[k][c] = (float)plan->map[k][c];

  plan->dst_x0 = (float)config->dst_x;
  plan->dst_y0 = (float)config->dst_y;
  plan->dst_x1 = (float)(config->dst_x + config->dst_w);
  plan->dst_y1 = (float)(config->dst_y + config->dst_h);
  /* With an odd output size, the last centred chroma sample sits on the
   * frame's edge (4:2:0 at width 3: centre at X = 3.0), outside the
   * half-open rectangle although half of it covers the image. When the
   * rectangle reaches the edge, push its end past any sample centre so
   * that such samples get the image, not the border. */
  if (config->dst_x + config->dst_w == out_width)
    plan->dst_x1 += 1.0f;
  if (config->dst_y + config->dst_h == out_height)
    plan->dst_y1 += 1.0f;

  /* A developed Bayer picture is full-range R'G'B'. */
  texel_color_matrix (&plan->in,
                      config->bayer != NULL ? &rgb_full : &config->in_color,
                      &plan->out, &config->out_color, plan->m);
  for (k = 0; k < 3; k++)
    for (c = 0; c < 4; c++)
      plan->m_f[k][c] = (float)plan->m[k][c];

  /* Only GRAY8 lacks chroma; only RGBx-like formats lack alpha. */
  plan->in_missing[0] = 0.0f;
  plan->in_missing[1] = plan->in_missing[2] = neutral_chroma (&plan->in);
  plan->in_missing[3] = 1.0f;

  encode_border (config, &plan->out, plan->border);

  plan->in_chroma_off[0] = config->in_color.chroma_h_cosited ? 0.5f : 1.0f;
  plan->in_chroma_off[1] = config->in_color.chroma_v_cosited ? 0.5f : 1.0f;
  plan->out_chroma_off[0] = config->out_color.chroma_h_cosited ? 0.5f : 1.0f;
  plan->out_chroma_off[1] = config->out_color.chroma_v_cosited ? 0.5f : 1.0f;

  plan->chroma_filter = 1;
  plan->axes_swapped = plan->map[0][0] == 0.0;

  plan->rows_monotonic = config->direction == TEXEL_DIRECTION_IDENTITY
                         || config->direction == TEXEL_DIRECTION_HORIZ;
  return 0;
}
