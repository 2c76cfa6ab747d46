/* gst-texel: the plan of texelfilter: which components are filtered and
 * the weights of the window, computed once per caps or property change in
 * double (rounded to float once, for the kernels).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-filter.h"

#include <math.h>
#include <string.h>

void
texel_filter_config_init (TexelFilterConfig *config)
{
  memset (config, 0, sizeof (*config));
  config->filter = TEXEL_FILTER_GAUSSIAN;
  config->sigma = 1.0;
  config->amount = 1.0;
  config->sigma_space = 1.0;
  config->sigma_range = 0.1;
  config->radius = 1;
  config->border = TEXEL_FILTER_BORDER_CLAMP;
  config->planes = TEXEL_FILTER_PLANES_ALL;
}

/* Whether every setting lies in its range; NaN does not. */
static const char *
config_error (const TexelFilterConfig *config)
{
  if (!(config->filter >= 0 && config->filter < TEXEL_FILTER_N_KINDS))
    return "unknown filter";
  if (config->border != TEXEL_FILTER_BORDER_CLAMP
      && config->border != TEXEL_FILTER_BORDER_MIRROR)
    return "unknown border mode";
  if (config->planes != TEXEL_FILTER_PLANES_LUMA
      && config->planes != TEXEL_FILTER_PLANES_ALL)
    return "unknown planes setting";
  if (!(config->sigma >= 0.0 && config->sigma <= TEXEL_FILTER_SIGMA_MAX))
    return "sigma out of range";
  if (!(config->amount >= 0.0 && config->amount <= TEXEL_FILTER_AMOUNT_MAX))
    return "amount out of range";
  if (!(config->sigma_space >= 0.0
        && config->sigma_space <= TEXEL_FILTER_SIGMA_SPACE_MAX))
    return "sigma-space out of range";
  if (!(config->sigma_range >= TEXEL_FILTER_SIGMA_RANGE_MIN
        && config->sigma_range <= TEXEL_FILTER_SIGMA_RANGE_MAX))
    return "sigma-range out of range";
  if (config->radius < 0 || config->radius > TEXEL_FILTER_RADIUS_MAX)
    return "radius out of range";
  return NULL;
}

int
texel_filter_config_radius (const TexelFilterConfig *config)
{
  if (config_error (config) != NULL)
    return -1;
  switch (config->filter)
    {
      case TEXEL_FILTER_GAUSSIAN:
      case TEXEL_FILTER_UNSHARP:
        return (int)ceil (3.0 * config->sigma);
      case TEXEL_FILTER_BILATERAL:
        return (int)ceil (2.0 * config->sigma_space);
      case TEXEL_FILTER_BOX:
        return config->radius;
      case TEXEL_FILTER_SOBEL:
      default:
        return 1;
    }
}

int
texel_filter_config_is_neutral (const TexelFilterConfig *config)
{
  if (config_error (config) != NULL)
    return 0;
  switch (config->filter)
    {
      case TEXEL_FILTER_UNSHARP:
        return config->amount == 0.0 || config->sigma == 0.0;
      case TEXEL_FILTER_SOBEL:
        return 0;
      default:
        /* A window of one sample with weight 1. */
        return texel_filter_config_radius (config) == 0;
    }
}

/* exp (-k^2 / (2 sigma^2)) for k in [-radius, radius], normalised to sum
 * 1 when @normalise. */
static void
gaussian_weights (TexelFilterPlan *plan, double sigma, int normalise)
{
  int r = plan->radius, k;
  double sum = 0.0;

  for (k = -r; k <= r; k++)
    {
      double w = k == 0 ? 1.0 : exp (-(double)(k * k) / (2.0 * sigma * sigma));

      plan->weight_d[k + r] = w;
      sum += w;
    }
  if (normalise)
    for (k = 0; k <= 2 * r; k++)
      plan->weight_d[k] /= sum;
}

int
texel_filter_plan_init (TexelFilterPlan *plan, const TexelFilterConfig *config,
                        TexelFormat format, int width, int height,
                        const char **error)
{
  const TexelFormatDesc *desc = texel_format_desc (format);
  const char *why = NULL;
  double max;
  int c, k;

  memset (plan, 0, sizeof (*plan));
  if (desc == NULL)
    why = "unknown format";
  else if (width <= 0 || height <= 0)
    why = "empty image";
  else if (desc->bits > 10)
    /* The range weights by code and the exact float sums stop there. */
    why = "formats of more than 10 bits are not supported";
  else
    why = config_error (config);
  if (why != NULL)
    {
      if (error != NULL)
        *error = why;
      return -1;
    }

  plan->fmt = *desc;
  plan->width = width;
  plan->height = height;
  plan->filter = config->filter;
  plan->border = config->border;
  plan->radius = texel_filter_config_radius (config);
  plan->pad_offset = texel_format_padding_offset (desc);
  plan->max_code = (1 << desc->bits) - 1;
  max = plan->max_code;
  for (c = 0; c < 3; c++)
    plan->filtered[c] = desc->comp[c].plane >= 0
                        && (c == 0 || !desc->is_yuv
                            || config->planes == TEXEL_FILTER_PLANES_ALL);

  switch (config->filter)
    {
      case TEXEL_FILTER_GAUSSIAN:
      case TEXEL_FILTER_UNSHARP:
        gaussian_weights (plan, config->sigma, 1);
        break;
      case TEXEL_FILTER_BILATERAL:
        gaussian_weights (plan, config->sigma_space, 0);
        break;
      case TEXEL_FILTER_BOX:
      case TEXEL_FILTER_SOBEL:
      default:
        for (k = 0; k <= 2 * plan->radius; k++)
          plan->weight_d[k] = 1.0;
        break;
    }
  plan->amount_d
      = config->filter == TEXEL_FILTER_UNSHARP ? config->amount : 0.0;
  plan->range_coef_d
      = 1.0 / (2.0 * config->sigma_range * config->sigma_range * max * max);
  plan->box_count = (2 * plan->radius + 1) * (2 * plan->radius + 1);

  for (k = 0; k < TEXEL_FILTER_TAPS_MAX; k++)
    plan->weight[k] = (float)plan->weight_d[k];
  plan->amount = (float)plan->amount_d;
  plan->range_coef = (float)plan->range_coef_d;
  return 0;
}

void
texel_filter_input_rows (const TexelFilterPlan *plan, int row0, int row1,
                         int *in_row0, int *in_row1)
{
  int lo = row0, hi = row1, c;

  for (c = 0; c < TEXEL_MAX_COMPONENTS; c++)
    {
      const TexelComponent *comp = &plan->fmt.comp[c];
      int s = comp->y_shift;
      int r = plan->filtered[c] ? plan->radius : 0;
      int first, end;

      if (comp->plane < 0)
        continue;
      /* Grid rows read, back in luma rows (multiplied: the first can be
       * negative). */
      first = (texel_filter_grid_row (row0, s) - r) * (1 << s);
      end = (texel_filter_grid_row (row1, s) + r) * (1 << s);
      if (first < lo)
        lo = first;
      if (end > hi)
        hi = end;
    }
  *in_row0 = lo < 0 ? 0 : lo;
  *in_row1 = hi > plan->height ? plan->height : hi;
}
