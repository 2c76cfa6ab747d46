/* gst-texel: the fast CPU path's raw Bayer development
 * (texel-bayer-fast.h).
 *
 * A row is developed from the five mosaic rows around it, each read
 * into two planes (centred int16 codes for the integer way, linear floats
 * for the float way): the even and the odd columns of the window
 * (columns x0 - 2 .. x0 + n + 1), kept in a ring in the scratch so that a
 * band's consecutive rows read each mosaic row once. An output pixel of a
 * given column parity has one pixel class in the row, so each of its
 * colours is a fixed list of taps; a tap reads one plane at a constant
 * offset, and a colour is a few contiguous multiply-adds over half a row,
 * which the compiler vectorises. Integer way: each colour's sum, clamp
 * and table index, then the table look-ups (scalar gathers) straight to
 * the output. Float way: the colour matrix, the clip and the transfer
 * table per pixel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-bayer-fast.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The transfer table: 2^LUT_STEP_BITS linear steps per octave of linear
 * light over [2^-LUT_OCTAVES, 1]; below, the output is 0 (within 0.09
 * code for the steepest curve, a pure 1/2.8 power). */
#define LUT_STEP_BITS 7
#define LUT_OCTAVES 32
#define LUT_SIZE (LUT_OCTAVES << LUT_STEP_BITS)
#define LUT_EXP0 (127 - LUT_OCTAVES)
#define MANT_BITS (23 - LUT_STEP_BITS)
/* The bits of 2^-LUT_OCTAVES and of 1.0f. */
#define LUT_MIN_BITS (LUT_EXP0 << 23)
#define LUT_ONE_BITS (127 << 23)
/* R'G'B' in [0, 1] as 8-bit codes. */
#define VALUE_SCALE 255.0
/* ... in the rows' fixed point (texel-bayer-fast.h). */
#define FIXED_SCALE (VALUE_SCALE * (1 << TEXEL_BAYER_FAST_FRAC_BITS))

typedef struct
{
  int dx, dy;
  float weight;
} BayerTap;

/* The integer path's tables: at most this many entries a colour. */
#define ILUT_MAX (1 << 17)
/* Its bound: the most an entry may lie from the encoded exact value of
 * any sum its index stands for, in codes: with the entry's own rounding
 * to 1/256 code and the final rounding, every code within one of the
 * exact value. */
#define ILUT_BOUND 0.49

/* A tap of the integer path: weight @w (16ths) at (@dx, @dy). */
typedef struct
{
  int dx, dy, w;
} IntTap;

struct _TexelBayerFast
{
  /* The non-zero weights of kernel[class][colour]. */
  int n_taps[4][3];
  BayerTap tap[4][3][TEXEL_BAYER_TAPS];
  /* Encoded value at each step, and the step to the next. */
  float lut[LUT_SIZE + 1];
  float delta[LUT_SIZE + 1];

  /* The integer path (texel-bayer-fast.h): the plan's matrix is
   * diagonal with non-negative terms and every filter reads its own
   * colour with weights summing to 16 and at most one other colour with
   * weights summing to 0. The taps of kernel[class][colour] on the
   * output colour first (n_own), then those on colour other[class]
   * [colour] (-1: none). */
  int int_capable;
  int n_itaps[4][3], n_own[4][3], other[4][3];
  IntTap itap[4][3][TEXEL_BAYER_TAPS];
  int bits, half;
  /* Serialises texel_bayer_fast_sync. What follows is written under it,
   * between frames, and read by the rows of the next frame. */
  pthread_mutex_t lock;
  int built;
  /* The plan's scale and offset the tables were built for. */
  double scale[3], offset[3];
  /* Whether the tables keep the bound: the rows take the integer way. */
  int use_int;
  /* The other colour's sum times ratio[class][colour] (its scale over
   * the output colour's, times 2^sub), rounded, where split; added
   * unscaled otherwise. */
  int split[4][3];
  float ratio[4][3];
  /* Index of a sum Y of colour c (units of 2^-sub[c] 16ths of a code):
   * min (max (Y, 0), top[c]) >> shift. */
  int shift, sub[3], top[3];
  int16_t *ilut[3];
  /* The same rounded to 8-bit codes (texel_bayer_fast_row_codes). */
  uint8_t *icode[3];
  /* What each colour's tables hold: the codes (codes_ok) and the 16-bit
   * values (values_ok, built only for the rows that need them) of that
   * scale, offset, sub-steps and clamp. */
  int codes_ok[3], values_ok[3], table_sub[3], table_top[3];
  double table_scale[3], table_offset[3];
  /* The tables as the last texel_bayer_fast_sync left them. */
  int values_ready;
};

static double
encode (const TexelBayerPlan *bp, double l)
{
  if (l < bp->beta)
    return bp->slope * l;
  return (1.0 + bp->alpha) * pow (l, bp->power) - bp->alpha;
}

/* Splits kernel[cls][c] by the colour of each tap's sample into
 * fast->itap (the output colour's first); 0 when the filter is not of the
 * integer path's shape (texel-bayer-fast.h). */
static int
int_taps_split (TexelBayerFast *fast, const TexelBayerPlan *bp, int cls, int c)
{
  int sum[3] = { 0, 0, 0 }, pass, k, r;

  fast->other[cls][c] = -1;
  fast->n_itaps[cls][c] = 0;
  for (pass = 0; pass < 2; pass++)
    for (k = 0; k < TEXEL_BAYER_TAPS; k++)
      {
        int dx = k % 5 - 2, dy = k / 5 - 2, w = bp->kernel[cls][c][k];
        int col = texel_bayer_colour (cls ^ (dx & 1) ^ ((dy & 1) << 1));
        IntTap *t;

        if (w == 0 || (col == c) != (pass == 0))
          continue;
        if (col != c)
          {
            if (fast->other[cls][c] >= 0 && fast->other[cls][c] != col)
              return 0;
            fast->other[cls][c] = col;
          }
        t = &fast->itap[cls][c][fast->n_itaps[cls][c]++];
        t->dx = dx;
        t->dy = dy;
        t->w = w;
        sum[col] += w;
        if (pass == 0)
          fast->n_own[cls][c] = fast->n_itaps[cls][c];
      }
  for (r = 0; r < 3; r++)
    if (sum[r] != (r == c ? 16 : 0))
      return 0;
  return 1;
}

static void
int_taps_init (TexelBayerFast *fast, const TexelBayerPlan *bp)
{
  int cls, c, k;

  fast->int_capable = 1;
  for (c = 0; c < 3; c++)
    for (k = 0; k < 3; k++)
      if (bp->ccm[c][k] != 0.0 && (c != k || !(bp->ccm[c][c] > 0.0)))
        fast->int_capable = 0;
  for (cls = 0; cls < 4; cls++)
    for (c = 0; c < 3; c++)
      if (!int_taps_split (fast, bp, cls, c))
        fast->int_capable = 0;
  for (fast->bits = 8; fast->bits < 16 && (bp->mask >> fast->bits);
       fast->bits++)
    ;
  fast->half = 1 << (fast->bits - 1);
}

TexelBayerFast *
texel_bayer_fast_new (const TexelBayerPlan *bp)
{
  TexelBayerFast *fast = calloc (1, sizeof (*fast));
  int cls, c, k, j;

  if (fast == NULL)
    return NULL;
  for (cls = 0; cls < 4; cls++)
    for (c = 0; c < 3; c++)
      for (k = 0; k < TEXEL_BAYER_TAPS; k++)
        if (bp->kernel[cls][c][k] != 0)
          {
            BayerTap *t = &fast->tap[cls][c][fast->n_taps[cls][c]++];

            t->dx = k % 5 - 2;
            t->dy = k / 5 - 2;
            t->weight = (float)(bp->kernel[cls][c][k] / 16.0);
          }
  for (j = 0; j <= LUT_SIZE; j++)
    {
      double l = ldexp (
          1.0 + (double)(j & ((1 << LUT_STEP_BITS) - 1)) / (1 << LUT_STEP_BITS),
          (j >> LUT_STEP_BITS) - LUT_OCTAVES);

      fast->lut[j] = (float)(encode (bp, l) * FIXED_SCALE);
    }
  for (j = 0; j < LUT_SIZE; j++)
    fast->delta[j] = fast->lut[j + 1] - fast->lut[j];
  fast->delta[LUT_SIZE] = 0.0f;
  pthread_mutex_init (&fast->lock, NULL);
  int_taps_init (fast, bp);
  if (fast->int_capable)
    {
      fast->ilut[0] = malloc (3 * ILUT_MAX * sizeof (int16_t));
      fast->icode[0] = malloc (3 * ILUT_MAX);
      if (fast->ilut[0] == NULL || fast->icode[0] == NULL)
        {
          texel_bayer_fast_free (fast);
          return NULL;
        }
      for (c = 1; c < 3; c++)
        {
          fast->ilut[c] = fast->ilut[c - 1] + ILUT_MAX;
          fast->icode[c] = fast->icode[c - 1] + ILUT_MAX;
        }
    }
  return fast;
}

void
texel_bayer_fast_free (TexelBayerFast *fast)
{
  if (fast == NULL)
    return;
  pthread_mutex_destroy (&fast->lock);
  free (fast->ilut[0]);
  free (fast->icode[0]);
  free (fast);
}

/* The encoded value, in [0, 1], of a sum @y of colour @c in units of
 * 2^-@sub 16ths of a code. */
static double
int_value (const TexelBayerPlan *bp, int c, int sub, double y)
{
  double l
      = (bp->scale[c] * ldexp (y, -sub) / 16.0 + bp->offset[c]) * bp->ccm[c][c];

  return encode (bp, l < 0.0 ? 0.0 : (l > 1.0 ? 1.0 : l));
}

/* The most an entry of colour @c's table (sums in units of 2^-@sub
 * 16ths, index range @top >> shift) lies from the encoded value of a
 * sum it stands for, in codes, the sums off by up to @e units (the
 * rounded other-colour term). The curve of the clipped linear value is
 * concave from the sum where the value leaves 0 on (every transfer
 * curve is), so the entries of equally wide index ranges deviate less
 * the further they lie: the ranges around that sum bound them all. */
static double
int_deviation (const TexelBayerFast *fast, const TexelBayerPlan *bp, int c,
               int sub, int top, double e)
{
  const double s = bp->scale[c], o = bp->offset[c];
  const int step = 1 << fast->shift, n = top / step + 1;
  double worst = 0.0;
  int i, i0;

  if (!(s > 0.0))
    return 0.0;
  i0 = (int)floor (ldexp (-16.0 * o / s, sub) / step);
  for (i = i0 < 0 ? 0 : i0; i < i0 + 3 && i < n; i++)
    {
      double lo = (double)i * step, hi = fmin (lo + step - 1, top);
      double mid = int_value (bp, c, sub, 0.5 * (lo + hi));

      worst
          = fmax (worst, (mid - int_value (bp, c, sub, lo - e)) * VALUE_SCALE);
      worst
          = fmax (worst, (int_value (bp, c, sub, hi + e) - mid) * VALUE_SCALE);
    }
  return worst;
}

/* The index's upper clamp of colour @c, units of 2^-@sub 16ths: the sum
 * from which the value clips at 1, or the largest sum there is (28 times
 * the largest code: MHC's positive weights) when it never does. -1 when
 * the table would be too long. */
static int
int_top (const TexelBayerFast *fast, const TexelBayerPlan *bp, int c, int sub,
         int split)
{
  const double s = bp->scale[c], d = bp->ccm[c][c];
  double top = ldexp (28.0 * bp->mask, sub);

  if (!(s > 0.0 && d > 0.0))
    return 0;
  if (split || top > ldexp (16.0 * (1.0 / d - bp->offset[c]) / s, sub))
    top = ceil (ldexp (16.0 * (1.0 / d - bp->offset[c]) / s, sub));
  if (!(top / (1 << fast->shift) < ILUT_MAX))
    return -1;
  return (int)top;
}

/* The encoded value entry @i of colour @c's table stands for: that of
 * the middle of its sums (table_sub, table_top set). */
static double
int_entry (const TexelBayerFast *fast, const TexelBayerPlan *bp, int c, int i)
{
  const int step = 1 << fast->shift;
  const double lo = (double)i * step;

  return int_value (bp, c, fast->table_sub[c],
                    0.5 * (lo + fmin (lo + step - 1, fast->table_top[c])));
}

static int
int_entry_code (const TexelBayerFast *fast, const TexelBayerPlan *bp, int c,
                int i)
{
  return (int)lround (int_entry (fast, bp, c, i) * VALUE_SCALE);
}

/* Colour @c's table of codes: the entries are monotonic, so each code's
 * first entry is found from the curve's inverse and checked (and moved)
 * with the forward curve, a few evaluations a code instead of one an
 * entry (a 12-bit table has 65521 entries, 256 codes). Every entry gets
 * exactly lround (255 x int_entry). */
static void
int_codes (TexelBayerFast *fast, const TexelBayerPlan *bp, int c)
{
  const double s = bp->scale[c], o = bp->offset[c], d = bp->ccm[c][c];
  const int step = 1 << fast->shift, n = fast->table_top[c] / step + 1;
  const double units = ldexp (16.0, fast->table_sub[c]);
  uint8_t *code = fast->icode[c];
  int k, from = 0;

  for (k = 1; k <= 256 && from < n; k++)
    {
      int to = n;

      if (k < 256 && int_entry_code (fast, bp, c, n - 1) >= k)
        {
          /* The linear value where the encoded one reaches k - 1/2. */
          double v = (k - 0.5) / VALUE_SCALE, x, y;

          x = v < bp->slope * bp->beta
                  ? v / bp->slope
                  : pow ((v + bp->alpha) / (1.0 + bp->alpha), 1.0 / bp->power);
          y = s > 0.0 && d > 0.0 ? (x / d - o) / s * units : 0.0;
          y = ceil ((y - 0.5 * (step - 1)) / step);
          to = y < from ? from : (y > n ? n : (int)y);
          while (to > from && int_entry_code (fast, bp, c, to - 1) >= k)
            to--;
          while (to < n && int_entry_code (fast, bp, c, to) < k)
            to++;
        }
      memset (code + from, k - 1, (size_t)(to - from));
      from = to;
    }
}

/* Colour @c's table for the plan's gains: the fewest sub-units of a 16th
 * whose entries keep the bound (none where every index is exact), each
 * entry the encoded value of the middle of the sums it stands for.
 * Returns 0, or -1 when no table of at most ILUT_MAX entries keeps it. */
static int
int_table (TexelBayerFast *fast, const TexelBayerPlan *bp, int c,
           int want_values)
{
  const int step = 1 << fast->shift;
  double ratio = 0.0;
  int cls, i, n, sub, top = -1, split = 0;

  for (cls = 0; cls < 4; cls++)
    if (fast->split[cls][c])
      {
        split = 1;
        ratio = fmax (ratio,
                      fabs (bp->scale[fast->other[cls][c]] / bp->scale[c]));
      }
  if (split && !(bp->scale[c] > 0.0))
    return -1;
  for (sub = 0; sub <= 8; sub++)
    {
      /* The rounding of the other colour's term, and the float product's
       * error (at most 24 weights of codes within half the range). */
      double e
          = split ? 0.5 + ldexp (24.0 * fast->half * ratio, sub - 22) : 0.0;

      top = int_top (fast, bp, c, sub, split);
      if (top < 0)
        return -1;
      if ((step == 1 && !split)
          || int_deviation (fast, bp, c, sub, top, e) <= ILUT_BOUND)
        break;
    }
  if (sub > 8)
    return -1;
  fast->sub[c] = sub;
  fast->top[c] = top;
  for (cls = 0; cls < 4; cls++)
    fast->ratio[cls][c]
        = fast->split[cls][c] ? (float)ldexp (
              bp->scale[fast->other[cls][c]] / bp->scale[c], sub)
                              : 1.0f;
  /* The entries depend on this colour's scale and offset, sub-steps and
   * clamp only (the ratios are applied in the sums): the automatic white
   * balance, which keeps green's gain at 1, rebuilds two tables of three. */
  if (!(fast->codes_ok[c] && fast->table_scale[c] == bp->scale[c]
        && fast->table_offset[c] == bp->offset[c] && fast->table_sub[c] == sub
        && fast->table_top[c] == top))
    {
      fast->table_scale[c] = bp->scale[c];
      fast->table_offset[c] = bp->offset[c];
      fast->table_sub[c] = sub;
      fast->table_top[c] = top;
      fast->values_ok[c] = 0;
      int_codes (fast, bp, c);
      fast->codes_ok[c] = 1;
    }
  if (want_values && !fast->values_ok[c])
    {
      n = top / step + 1;
      for (i = 0; i < n; i++)
        fast->ilut[c][i]
            = (int16_t)lround (int_entry (fast, bp, c, i) * FIXED_SCALE);
      fast->values_ok[c] = 1;
    }
  return 0;
}

/* Rebuilds the integer path's tables for the plan's gains. */
static void
int_rebuild (TexelBayerFast *fast, const TexelBayerPlan *bp, int want_values)
{
  int cls, c;

  fast->shift = fast->bits > 12 ? fast->bits - 12 : 0;
  for (cls = 0; cls < 4; cls++)
    for (c = 0; c < 3; c++)
      {
        int r = fast->other[cls][c];

        fast->split[cls][c] = r >= 0 && bp->scale[r] != bp->scale[c];
      }
  fast->use_int = 1;
  for (c = 0; c < 3; c++)
    if (int_table (fast, bp, c, want_values) != 0)
      fast->use_int = 0;
  fast->values_ready = want_values;
  memcpy (fast->scale, bp->scale, sizeof (fast->scale));
  memcpy (fast->offset, bp->offset, sizeof (fast->offset));
  fast->built = 1;
}

int
texel_bayer_fast_sync (TexelBayerFast *fast, const TexelBayerPlan *bp,
                       int values)
{
  int use_int;

  pthread_mutex_lock (&fast->lock);
  if (fast->int_capable
      && (!fast->built || (values && !fast->values_ready)
          || memcmp (fast->scale, bp->scale, sizeof (fast->scale))
          || memcmp (fast->offset, bp->offset, sizeof (fast->offset))))
    int_rebuild (fast, bp, values);
  use_int = fast->int_capable && fast->use_int;
  pthread_mutex_unlock (&fast->lock);
  return use_int;
}

/* Floats in one plane of the window: half the row and the margins. */
static int
plane_len (int n)
{
  return (n + 1) / 2 + 4;
}

/* The head of the scratch: the ring of linearised mosaic rows, slot
 * u mod RING holding window row u (before mirroring) of columns
 * [x0, x0 + n), so that each mosaic row is linearised once per band
 * instead of once for each of the five output rows that read it. */
#define RING 5

typedef struct
{
  int u[RING];
  int x0, n;
} BayerRing;

static size_t
ring_head (void)
{
  return (sizeof (BayerRing) + 63) & ~(size_t)63;
}

size_t
texel_bayer_fast_scratch (int n)
{
  /* The ring (RING rows x 2 parities), 3 colours, the table's indices
   * and fractions. */
  return ring_head () + sizeof (float) * (size_t)plane_len (n) * (2 * RING + 5)
         + 64;
}

void
texel_bayer_fast_reset (void *scratch)
{
  BayerRing *ring = scratch;
  int k;

  for (k = 0; k < RING; k++)
    ring->u[k] = INT_MIN;
  ring->x0 = ring->n = -1;
}

static inline unsigned
code_at (const uint8_t *row, int wide, int x, int shift, unsigned mask)
{
  unsigned word
      = wide ? (unsigned)(row[2 * x] | (row[2 * x + 1] << 8)) : row[x];

  return (word >> shift) & mask;
}

/* Pairs of samples texel_bayer_fast_stats sums in 32-bit lanes at a
 * time: below 2^32 / (2^16 - 1) codes of 16 bits. */
#define STATS_CHUNK 32768

/* The codes of samples 2 @k and 2 @k + 1 of @row: one load of both
 * (little-endian words: the low half is the first sample), which the
 * vectoriser takes as a plain vector load where a byte at a time it
 * shuffles. */
static inline __attribute__ ((always_inline)) void
stats_pair (const uint8_t *restrict row, int wide, int k, int shift,
            unsigned mask, uint32_t *a, uint32_t *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (wide)
    {
      uint32_t both;

      memcpy (&both, row + 4 * (size_t)k, 4);
      *a = ((both & 0xffffu) >> shift) & mask;
      *b = (both >> 16 >> shift) & mask;
    }
  else
    {
      uint16_t both;

      memcpy (&both, row + 2 * (size_t)k, 2);
      *a = ((both & 0xffu) >> shift) & mask;
      *b = ((unsigned)both >> 8 >> shift) & mask;
    }
#else
  *a = code_at (row, wide, 2 * k, shift, mask);
  *b = code_at (row, wide, 2 * k + 1, shift, mask);
#endif
}

/* The sums and counts of the codes at or below @clip among the even (0)
 * and odd (1) samples of @pairs pairs from @row, added to @sum and
 * @count. Inlined with @wide a constant, so that each storage is its
 * own loop, which the compiler vectorises (32-bit lanes, the clip test a
 * mask). */
static inline __attribute__ ((always_inline)) void
stats_pairs (const uint8_t *restrict row, int wide, int pairs, int shift,
             unsigned mask, unsigned clip, unsigned long long sum[2],
             unsigned long long count[2])
{
  int k0, k;

  for (k0 = 0; k0 < pairs; k0 += STATS_CHUNK)
    {
      int k1 = pairs - k0 < STATS_CHUNK ? pairs : k0 + STATS_CHUNK;
      uint32_t s0 = 0, s1 = 0, n0 = 0, n1 = 0;

      for (k = k0; k < k1; k++)
        {
          uint32_t a, b, keep_a, keep_b;

          stats_pair (row, wide, k, shift, mask, &a, &b);
          keep_a = a <= clip;
          keep_b = b <= clip;

          s0 += keep_a ? a : 0;
          n0 += keep_a;
          s1 += keep_b ? b : 0;
          n1 += keep_b;
        }
      sum[0] += s0;
      count[0] += n0;
      sum[1] += s1;
      count[1] += n1;
    }
}

void
texel_bayer_fast_stats (const TexelBayerPlan *bp, const TexelImage *in, int x0,
                        int y0, int x1, int y1, TexelBayerStats *stats)
{
  const int wide = in->format == TEXEL_FORMAT_GRAY16_LE;
  const int pairs = (x1 - x0) / 2;
  int y;

  for (y = y0; y < y1; y++)
    {
      const uint8_t *row = in->data[0] + (size_t)y * in->stride[0];
      const uint8_t *first = row + (size_t)x0 * (wide ? 2 : 1);
      unsigned long long sum[2] = { 0, 0 }, count[2] = { 0, 0 };
      int c0 = texel_bayer_colour (texel_bayer_class (bp, x0, y));
      int c1 = texel_bayer_colour (texel_bayer_class (bp, x0 + 1, y));

      if (wide)
        stats_pairs (first, 1, pairs, bp->shift, bp->mask, bp->awb_clip, sum,
                     count);
      else
        stats_pairs (first, 0, pairs, bp->shift, bp->mask, bp->awb_clip, sum,
                     count);
      if (x0 + 2 * pairs < x1)
        {
          unsigned a = code_at (row, wide, x1 - 1, bp->shift, bp->mask);

          sum[0] += a <= bp->awb_clip ? a : 0;
          count[0] += a <= bp->awb_clip;
        }
      stats->sum[c0] += sum[0];
      stats->count[c0] += count[0];
      stats->sum[c1] += sum[1];
      stats->count[c1] += count[1];
    }
}

/* Of the columns @first + 2 i (i < @len), those inside a row of @w
 * samples: i in [@lo, @hi). */
static void
inside_span (int first, int len, int w, int *lo, int *hi)
{
  *lo = first >= 0 ? 0 : (1 - first) / 2;
  *hi = first > w - 1 ? 0 : (w - 1 - first) / 2 + 1;
  if (*hi > len)
    *hi = len;
  if (*lo > *hi)
    *lo = *hi;
}

/* What reading the codes of a mosaic row needs. */
typedef struct
{
  const uint8_t *row;
  int wide, shift, width;
  unsigned mask;
} MosaicRow;

static void
mosaic_row (const TexelBayerPlan *bp, const TexelImage *in, int y, MosaicRow *m)
{
  m->row = in->data[0] + (size_t)y * in->stride[0];
  m->wide = in->format == TEXEL_FORMAT_GRAY16_LE;
  m->shift = bp->shift;
  m->width = in->width;
  m->mask = bp->mask;
}

/* The integer path's plane @par of mosaic row @y: @dst[i] = code of
 * column @first + 2 i, mirrored into the frame, minus @half (so that
 * 16-bit codes fit int16), for i < @len. */
static void
centred_codes (const TexelBayerPlan *bp, const TexelImage *in, int y, int first,
               int len, int half, int16_t *restrict dst)
{
  MosaicRow m;
  int i, lo, hi;

  mosaic_row (bp, in, y, &m);
  inside_span (first, len, m.width, &lo, &hi);
  /* Mirrored columns outside the frame: i in [0, lo) and [hi, len). */
  for (i = 0; i < len; i++)
    {
      if (i == lo)
        i = hi;
      if (i >= len)
        break;
      dst[i]
          = (int16_t)((int)code_at (m.row, m.wide,
                                    texel_bayer_mirror (first + 2 * i, m.width),
                                    m.shift, m.mask)
                      - half);
    }
  if (lo == hi)
    return;
  if (m.wide)
    {
      const uint8_t *restrict p = m.row + 2 * (size_t)(first + 2 * lo);

      for (i = 0; i < hi - lo; i++)
        dst[lo + i]
            = (int16_t)((int)(((unsigned)(p[4 * i] | (p[4 * i + 1] << 8))
                               >> m.shift)
                              & m.mask)
                        - half);
    }
  else
    {
      const uint8_t *restrict p = m.row + first + 2 * lo;

      for (i = 0; i < hi - lo; i++)
        dst[lo + i] = (int16_t)(p[2 * i] - half);
    }
}

/* Plane @par of mosaic row @y: @dst[i] = linear value of column
 * @first + 2 i, mirrored into the frame, for i < @len. */
static void
linearise (const TexelBayerPlan *bp, const TexelImage *in, int y, int first,
           int len, float *restrict dst)
{
  MosaicRow m;
  const uint8_t *restrict row;
  int wide, shift, w;
  unsigned mask;
  int i, lo, hi;

  mosaic_row (bp, in, y, &m);
  row = m.row;
  wide = m.wide;
  shift = m.shift;
  w = m.width;
  mask = m.mask;
  inside_span (first, len, w, &lo, &hi);
  for (i = 0; i < len; i++)
    {
      int x, c;

      if (i == lo)
        i = hi;
      if (i >= len)
        break;
      x = texel_bayer_mirror (first + 2 * i, w);
      c = texel_bayer_colour (texel_bayer_class (bp, x, y));
      dst[i] = (float)code_at (row, wide, x, shift, mask) * bp->scale_f[c]
               + bp->offset_f[c];
    }
  if (lo < hi)
    {
      const int c
          = texel_bayer_colour (texel_bayer_class (bp, first + 2 * lo, y));
      const float s = bp->scale_f[c], o = bp->offset_f[c];
      const int x = first + 2 * lo;

      if (wide)
        {
          const uint8_t *restrict p = row + 2 * (size_t)x;

          for (i = 0; i < hi - lo; i++)
            dst[lo + i]
                = (float)(((unsigned)(p[4 * i] | (p[4 * i + 1] << 8)) >> shift)
                          & mask)
                      * s
                  + o;
        }
      else
        {
          const uint8_t *restrict p = row + x;

          for (i = 0; i < hi - lo; i++)
            dst[lo + i] = (float)p[2 * i] * s + o;
        }
    }
}

/* Row @c of the colour matrix over @len pixels of @cam, clipped to
 * [2^-LUT_OCTAVES, 1], encoded through the table into every second float of
 * @dst. The table's index and fraction come from the float's bits in a loop the
 * compiler vectorises; the look-up itself is a scalar gather. */
static void
encode_row (const TexelBayerFast *fast, const float m[3], float *const cam[3],
            int len, int32_t *restrict idx, float *restrict frac,
            int16_t *restrict dst)
{
  const float *restrict c0 = cam[0], *restrict c1 = cam[1],
                        *restrict c2 = cam[2];
  const float m0 = m[0], m1 = m[1], m2 = m[2];
  int i;

  for (i = 0; i < len; i++)
    {
      float l = m0 * c0[i] + m1 * c1[i] + m2 * c2[i];
      int32_t bits;

      /* Clipped as integers: the bits of floats >= 0 are in their order,
       * negative ones are negative integers (and NaN clips to 1). */
      memcpy (&bits, &l, sizeof (bits));
      bits = bits > LUT_MIN_BITS ? bits : LUT_MIN_BITS;
      bits = bits < LUT_ONE_BITS ? bits : LUT_ONE_BITS;
      idx[i] = (bits >> MANT_BITS) - (LUT_EXP0 << LUT_STEP_BITS);
      frac[i]
          = (float)(bits & ((1 << MANT_BITS) - 1)) * (1.0f / (1 << MANT_BITS));
    }
  for (i = 0; i < len; i++)
    dst[2 * i]
        = (int16_t)(fast->lut[idx[i]] + fast->delta[idx[i]] * frac[i] + 0.5f);
}

/* The window plane and offset tap @tp reads for the pixels of column
 * parity @q (float or int16 planes alike). */
#define TAP_SOURCE(window, tp, q)                                              \
  ((window)[(tp)->dy + 2][((q) + (tp)->dx) & 1] + (((q) + 2 + (tp)->dx) >> 1))

/* The loops of the *_add4 functions: @out (+)= the four weighted sources
 * w0..w3 times a..d over @len values (@first: =), the sum as @type:
 * four taps a pass, so that @out is loaded and stored once per four. */
#define ADD4_LOOPS(type)                                                       \
  do                                                                           \
    {                                                                          \
      int i_;                                                                  \
                                                                               \
      if (first)                                                               \
        for (i_ = 0; i_ < len; i_++)                                           \
          out[i_] = (type)(w0 * a[i_] + w1 * b[i_] + w2 * c[i_] + w3 * d[i_]); \
      else                                                                     \
        for (i_ = 0; i_ < len; i_++)                                           \
          out[i_]                                                              \
              += (type)(w0 * a[i_] + w1 * b[i_] + w2 * c[i_] + w3 * d[i_]);    \
    }                                                                          \
  while (0)

static inline void
multiply_add4 (float *restrict out, const float *restrict a,
               const float *restrict b, const float *restrict c,
               const float *restrict d, const float w[4], int len, int first)
{
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];

  ADD4_LOOPS (float);
}

/* Colour of the pixels of one class over @len pixels: the taps summed
 * (a missing fourth tap of a pass weighs 0). */
static void
apply_taps (const BayerTap *taps, int n_taps, int q, float *window[5][2],
            int len, float *restrict out)
{
  int t, k;

  for (t = 0; t < n_taps; t += 4)
    {
      const float *src[4];
      float w[4];

      for (k = 0; k < 4; k++)
        {
          const BayerTap *tp = &taps[t + k < n_taps ? t + k : t];

          src[k] = TAP_SOURCE (window, tp, q);
          w[k] = t + k < n_taps ? tp->weight : 0.0f;
        }
      multiply_add4 (out, src[0], src[1], src[2], src[3], w, len, t == 0);
    }
}

/* multiply_add4 over codes, 32-bit sums. */
static inline void
int_add4 (int32_t *restrict out, const int16_t *restrict a,
          const int16_t *restrict b, const int16_t *restrict c,
          const int16_t *restrict d, const int32_t w[4], int len, int first)
{
  /* int16 x int16 products: widening multiplies (pmullw and pmulhw),
   * not 32 x 32-bit ones, which SSE2 lacks. */
  const int16_t w0 = (int16_t)w[0], w1 = (int16_t)w[1], w2 = (int16_t)w[2],
                w3 = (int16_t)w[3];

  ADD4_LOOPS (int32_t);
}

/* int_add4 in 16-bit lanes (pmullw, mul.8h: twice the lanes of 32-bit
 * products, which SSE2 lacks): where no sum can leave int16. */
static inline void
int_add4_narrow (int16_t *restrict out, const int16_t *restrict a,
                 const int16_t *restrict b, const int16_t *restrict c,
                 const int16_t *restrict d, const int32_t w[4], int len,
                 int first)
{
  const int16_t w0 = (int16_t)w[0], w1 = (int16_t)w[1], w2 = (int16_t)w[2],
                w3 = (int16_t)w[3];

  ADD4_LOOPS (int16_t);
}

/* The integer path's apply_taps: sums of centred codes in 16ths, into
 * @out; summed in @narrow's 16-bit lanes first where it is not NULL (up
 * to 10-bit mosaics: 40 weights' worth of codes within +-512 fit). */
static void
int_apply (const IntTap *taps, int n_taps, int q, int16_t *window[5][2],
           int len, int16_t *restrict narrow, int32_t *restrict out)
{
  int t, k;

  for (t = 0; t < n_taps; t += 4)
    {
      const int16_t *src[4];
      int32_t w[4];

      for (k = 0; k < 4; k++)
        {
          src[k] = TAP_SOURCE (window, &taps[t + k < n_taps ? t + k : t], q);
          w[k] = t + k < n_taps ? taps[t + k].w : 0;
        }
      if (narrow != NULL)
        int_add4_narrow (narrow, src[0], src[1], src[2], src[3], w, len,
                         t == 0);
      else
        int_add4 (out, src[0], src[1], src[2], src[3], w, len, t == 0);
    }
  if (narrow != NULL)
    for (t = 0; t < len; t++)
      out[t] = narrow[t];
}

/* The weighted sums of int_index_narrow's first 2, 4, 9 and 12 taps
 * (the filters have 1, 2, 4, 9 and 11). */
#define SUM2(i) (w[0] * s[0][i] + w[1] * s[1][i])
#define SUM4(i) (SUM2 (i) + w[2] * s[2][i] + w[3] * s[3][i])
#define SUM9(i)                                                                \
  (SUM4 (i) + w[4] * s[4][i] + w[5] * s[5][i] + w[6] * s[6][i]                 \
   + w[7] * s[7][i] + w[8] * s[8][i])
#define SUM12(i)                                                               \
  (SUM9 (i) + w[9] * s[9][i] + w[10] * s[10][i] + w[11] * s[11][i])
/* idx[i] = clamp (SUM + bias, 0, top), in 16-bit lanes. */
#define INDEX_LOOP(SUM)                                                        \
  for (i = 0; i < len; i++)                                                    \
    {                                                                          \
      int16_t y = (int16_t)(SUM (i) + bias);                                   \
                                                                               \
      y = y > 0 ? y : 0;                                                       \
      idx[i] = y < top ? y : top;                                              \
    }

/* The table indices of @len pixels whose sum is @taps (at most 12) over
 * codes of 10 bits or less, without a split or sub-steps, in one pass of
 * 16-bit lanes: each index clamp (Y, 0, @top) for Y = the weighted sum +
 * @bias (Y lies in [-12 x 1023, 28 x 1023]; SSE2 has 16-bit min and max,
 * not 32-bit ones). One pass instead of int_apply's passes of four taps
 * and a clamp: the sum is not stored and read back; the loop with the
 * fewest taps at least @n (missing ones weigh 0). Above 10 bits the
 * 32-bit sums of twelve taps at once spill registers: int_apply there. */
static void
int_index_narrow (const IntTap *taps, int n, int q, int16_t *window[5][2],
                  int len, int16_t bias, int16_t top, int32_t *restrict idx)
{
  const int16_t *restrict s[12];
  int16_t w[12];
  int k, i;

  for (k = 0; k < 12; k++)
    {
      s[k] = TAP_SOURCE (window, &taps[k < n ? k : 0], q);
      w[k] = k < n ? (int16_t)taps[k].w : 0;
    }
  if (n <= 2)
    INDEX_LOOP (SUM2)
  else if (n <= 4)
    INDEX_LOOP (SUM4)
  else if (n <= 9)
    INDEX_LOOP (SUM9)
  else
    INDEX_LOOP (SUM12)
}

/* int_index_narrow where the other colour's scale differs (MHC with
 * per-channel gains or black levels: the automatic white balance): the
 * output colour's sum of at most 4 taps and the other colour's of at
 * most 9, each in 16-bit lanes, then Y = own x 2^@sub + the other's sum
 * times @ratio (float, rounded half away from zero) + @bias, clamped, in
 * 32 bits, all in one pass. @s and @w: the 4 own taps' sources and
 * weights, then the 9 others' (missing ones weigh 0). */
static void
int_index_split (const int16_t *const *restrict s, const int16_t *w, int len,
                 float ratio, int sub, int32_t bias, int32_t top,
                 int32_t *restrict idx)
{
  int i;

  for (i = 0; i < len; i++)
    {
      int16_t a = (int16_t)SUM4 (i);
      int16_t b
          = (int16_t)(w[4] * s[4][i] + w[5] * s[5][i] + w[6] * s[6][i]
                      + w[7] * s[7][i] + w[8] * s[8][i] + w[9] * s[9][i]
                      + w[10] * s[10][i] + w[11] * s[11][i] + w[12] * s[12][i]);
      float f = (float)b * ratio;
      int32_t y
          = a * (1 << sub) + (int32_t)(f + (f >= 0.0f ? 0.5f : -0.5f)) + bias;

      y = y > 0 ? y : 0;
      idx[i] = y < top ? y : top;
    }
}

#undef SUM2
#undef SUM4
#undef SUM9
#undef SUM12
#undef INDEX_LOOP

/* Colour @c of the @len pixels of class @cls (column parity @q) on the
 * integer path: the sum Y of the codes in 16ths (the other colour's
 * zero-sum term scaled to the output colour's gain where the two differ)
 * as its table's index, into @idx (@acc, @other: scratch). */
static void
int_index (const TexelBayerFast *fast, int cls, int c, int q,
           int16_t *window[5][2], int len, int32_t *restrict acc,
           int32_t *restrict other, int32_t *restrict idx)
{
  const IntTap *taps = fast->itap[cls][c];
  const int n = fast->n_itaps[cls][c];
  const int own = fast->split[cls][c] ? fast->n_own[cls][c] : n;
  const int sub = fast->sub[c], shift = fast->shift;
  const int32_t bias = (16 * fast->half) << sub, top = fast->top[c];
  int i;

  if (fast->bits <= 10 && own == n && sub == 0 && n <= 12)
    {
      int_index_narrow (taps, n, q, window, len, (int16_t)bias, (int16_t)top,
                        idx);
      return;
    }
  if (fast->bits <= 10 && own <= 4 && n - own <= 9)
    {
      const int16_t *src[13];
      int16_t w[13];
      int k;

      for (k = 0; k < 13; k++)
        {
          /* Own taps in 0..3, the other colour's in 4..12. */
          int t = k < 4 ? k : own + k - 4;
          int real = k < 4 ? k < own : t < n;

          src[k] = TAP_SOURCE (window, &taps[real ? t : 0], q);
          w[k] = real ? (int16_t)taps[t].w : 0;
        }
      int_index_split (src, w, len, fast->ratio[cls][c], sub, bias, top, idx);
      return;
    }
  int_apply (taps, own, q, window, len,
             fast->bits <= 10 ? (int16_t *)idx : NULL, acc);
  if (sub > 0)
    for (i = 0; i < len; i++)
      acc[i] *= 1 << sub;
  if (own < n)
    {
      const float ratio = fast->ratio[cls][c];

      int_apply (taps + own, n - own, q, window, len,
                 fast->bits <= 10 ? (int16_t *)idx : NULL, other);
      for (i = 0; i < len; i++)
        {
          float f = (float)other[i] * ratio;

          acc[i] += (int32_t)(f + (f >= 0.0f ? 0.5f : -0.5f));
        }
    }
  for (i = 0; i < len; i++)
    {
      int32_t y = acc[i] + bias;

      y = y > 0 ? y : 0;
      idx[i] = (y < top ? y : top) >> shift;
    }
}

/* Points @window at the five mosaic rows around row @y in the ring of
 * @scratch, filling the slots not there yet: centred codes for the
 * integer way (@integer), linear values for the float way. */
static void
window_rows (const TexelBayerFast *fast, const TexelBayerPlan *bp,
             const TexelImage *in, int y, int x0, int n, int integer,
             void *scratch, float *window[5][2])
{
  const int len = plane_len (n);
  BayerRing *ring = scratch;
  float *base = (float *)((uint8_t *)scratch + ring_head ());
  int r, par;

  if (ring->x0 != x0 || ring->n != n)
    {
      texel_bayer_fast_reset (scratch);
      ring->x0 = x0;
      ring->n = n;
    }
  for (r = 0; r < 5; r++)
    {
      const int u = y + r - 2, slot = ((u % RING) + RING) % RING;
      const int ry = texel_bayer_mirror (u, in->height);

      for (par = 0; par < 2; par++)
        window[r][par] = base + (size_t)(2 * slot + par) * len;
      if (ring->u[slot] == u)
        continue;
      for (par = 0; par < 2; par++)
        if (integer)
          centred_codes (bp, in, ry, x0 - 2 + par, len, fast->half,
                         (int16_t *)window[r][par]);
        else
          linearise (bp, in, ry, x0 - 2 + par, len, window[r][par]);
      ring->u[slot] = u;
    }
}

/* The scratch's arrays after the ring: @k of 5, each a plane long. */
static void *
scratch_array (void *scratch, int n, int k)
{
  return (float *)((uint8_t *)scratch + ring_head ())
         + (size_t)(2 * RING + k) * plane_len (n);
}

/* Integer way: the table indices of the pixels of column parity @q in
 * row @y, colour by colour (int_index), handed to @each per parity. */
typedef void (*IndexFunc) (const TexelBayerFast *fast, int q,
                           int32_t *const idx[3], int count, void *data);

static void
int_row (const TexelBayerFast *fast, const TexelBayerPlan *bp,
         const TexelImage *in, int y, int x0, int n, void *scratch,
         IndexFunc each, void *data)
{
  float *window[5][2];
  int16_t *codes[5][2];
  int32_t *idx[3];
  int r, q, c;

  window_rows (fast, bp, in, y, x0, n, 1, scratch, window);
  for (r = 0; r < 5; r++)
    for (q = 0; q < 2; q++)
      codes[r][q] = (int16_t *)window[r][q];
  for (c = 0; c < 3; c++)
    idx[c] = scratch_array (scratch, n, 2 + c);
  for (q = 0; q < 2 && q < n; q++)
    {
      const int count = (n - q + 1) / 2;

      for (c = 0; c < 3; c++)
        int_index (fast, texel_bayer_class (bp, x0 + q, y), c, q, codes, count,
                   scratch_array (scratch, n, 0), scratch_array (scratch, n, 1),
                   idx[c]);
      each (fast, q, idx, count, data);
    }
}

/* IndexFunc of texel_bayer_fast_row: the 16-bit values. */
static void
fixed_values (const TexelBayerFast *fast, int q, int32_t *const idx[3],
              int count, void *data)
{
  int c, i;

  for (c = 0; c < 3; c++)
    {
      int16_t *restrict dst = ((int16_t *const *)data)[c] + q;
      const int16_t *restrict lut = fast->ilut[c];
      const int32_t *restrict ix = idx[c];

      for (i = 0; i < count; i++)
        dst[2 * i] = lut[ix[i]];
    }
}

void
texel_bayer_fast_row (const TexelBayerFast *fast, const TexelBayerPlan *bp,
                      const TexelImage *in, int y, int x0, int n,
                      int16_t *const rgb[3], void *scratch)
{
  float *window[5][2];
  float *cam[3];
  int q, c;

  if (fast->int_capable && fast->use_int && fast->values_ready)
    {
      int_row (fast, bp, in, y, x0, n, scratch, fixed_values, (void *)rgb);
      return;
    }
  window_rows (fast, bp, in, y, x0, n, 0, scratch, window);
  for (c = 0; c < 3; c++)
    cam[c] = scratch_array (scratch, n, c);
  for (q = 0; q < 2 && q < n; q++)
    {
      const int cls = texel_bayer_class (bp, x0 + q, y);
      const int count = (n - q + 1) / 2;

      for (c = 0; c < 3; c++)
        apply_taps (fast->tap[cls][c], fast->n_taps[cls][c], q, window, count,
                    cam[c]);
      for (c = 0; c < 3; c++)
        encode_row (fast, bp->ccm_f[c], cam, count,
                    scratch_array (scratch, n, 3),
                    scratch_array (scratch, n, 4), rgb[c] + q);
    }
}

typedef struct
{
  uint8_t *dst;
  ptrdiff_t pixel_stride;
  const int *offset;
} CodeDest;

/* IndexFunc of texel_bayer_fast_row_codes: the codes, in place; 4-byte
 * pixels as one word each, the fourth byte 0xff. */
static void
codes_in_place (const TexelBayerFast *fast, int q, int32_t *const idx[3],
                int count, void *data)
{
  const CodeDest *d = data;
  const ptrdiff_t ps = 2 * d->pixel_stride;
  uint8_t *restrict dst = d->dst + q * d->pixel_stride;
  const uint8_t *restrict l0 = fast->icode[0], *restrict l1 = fast->icode[1],
                          *restrict l2 = fast->icode[2];
  const int32_t *restrict i0 = idx[0], *restrict i1 = idx[1],
                          *restrict i2 = idx[2];
  int i, c;

  if ((d->pixel_stride == 4 || d->pixel_stride == -4) && d->offset[3] >= 0)
    {
      /* Each code times its byte's weight (a multiply: no shift by a
       * variable count in the loop). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      const uint32_t m0 = 1u << (24 - 8 * d->offset[0]),
                     m1 = 1u << (24 - 8 * d->offset[1]),
                     m2 = 1u << (24 - 8 * d->offset[2]),
                     fill = 0xffu << (24 - 8 * d->offset[3]);
#else
      const uint32_t m0 = 1u << (8 * d->offset[0]),
                     m1 = 1u << (8 * d->offset[1]),
                     m2 = 1u << (8 * d->offset[2]),
                     fill = 0xffu << (8 * d->offset[3]);
#endif

      for (i = 0; i < count; i++)
        {
          uint32_t word
              = l0[i0[i]] * m0 + l1[i1[i]] * m1 + l2[i2[i]] * m2 + fill;

          memcpy (dst + ps * i, &word, 4);
        }
      return;
    }
  for (c = 0; c < 3; c++)
    {
      uint8_t *restrict o = dst + d->offset[c];
      const uint8_t *restrict lut = fast->icode[c];
      const int32_t *restrict ix = idx[c];

      for (i = 0; i < count; i++)
        o[ps * i] = lut[ix[i]];
    }
  if (d->offset[3] >= 0)
    for (i = 0; i < count; i++)
      dst[ps * i + d->offset[3]] = 0xff;
}

int
texel_bayer_fast_row_codes (const TexelBayerFast *fast,
                            const TexelBayerPlan *bp, const TexelImage *in,
                            int y, int x0, int n, uint8_t *dst,
                            ptrdiff_t pixel_stride, const int offset[4],
                            void *scratch)
{
  CodeDest d = { dst, pixel_stride, offset };

  if (!(fast->int_capable && fast->use_int))
    return -1;
  int_row (fast, bp, in, y, x0, n, scratch, codes_in_place, &d);
  return 0;
}
