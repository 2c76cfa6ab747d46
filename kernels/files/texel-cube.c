/* gst-texel: the .cube parser (the format is described in texel-cube.h).
 *
 * One pass over the buffer, a line at a time; every read is bounded by
 * the line's end, itself bounded by the buffer's. Numbers are parsed
 * here rather than with strtod, which needs a NUL after the number (the
 * buffer has none) and follows the process's locale (a decimal comma
 * would cut "0.5" short).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "texel-cube.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Widest domain accepted, and narrowest. */
#define DOMAIN_LIMIT 1e6
#define DOMAIN_MIN_WIDTH 1e-6

typedef struct
{
  const char *start, *end; /* [start, end) */
} Span;

typedef struct
{
  TexelCube *cube;
  TexelCubeError *error;
  int line;
  int size_line, domain_min_line, domain_max_line, range_line;
  long entries; /* table lines read */
  long needed;  /* N^3 */
  int first_entry_line, last_entry_line;
} Parser;

#if defined(__GNUC__)
static int fail (Parser *p, int line, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));
#endif

static int
fail (Parser *p, int line, const char *format, ...)
{
  if (p->error != NULL)
    {
      va_list args;

      p->error->line = line;
      va_start (args, format);
      vsnprintf (p->error->message, sizeof (p->error->message), format, args);
      va_end (args);
    }
  return -1;
}

static int
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* The next field of @rest (advanced past it); 0 at the end of the line or
 * at a comment. */
static int
next_field (Span *rest, Span *field)
{
  const char *s = rest->start;

  while (s < rest->end && is_blank (*s))
    s++;
  if (s == rest->end || *s == '#')
    {
      rest->start = rest->end;
      return 0;
    }
  field->start = s;
  while (s < rest->end && !is_blank (*s) && *s != '#')
    s++;
  field->end = s;
  rest->start = s;
  return 1;
}

/* @field for a message: at most 24 bytes, unprintable ones as '?'. */
static const char *
quote (const Span *field, char buf[32])
{
  size_t n = (size_t)(field->end - field->start), i;

  if (n > 24)
    n = 24;
  for (i = 0; i < n; i++)
    {
      unsigned char c = (unsigned char)field->start[i];

      buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
  strcpy (buf + n, field->end - field->start > 24 ? "..." : "");
  return buf;
}

static int
span_equals (const Span *field, const char *word)
{
  size_t n = strlen (word);

  return (size_t)(field->end - field->start) == n
         && memcmp (field->start, word, n) == 0;
}

static int
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static char
lower (char c)
{
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether @field, past an optional sign, spells NaN or infinity. */
static int
is_nan_or_inf (const Span *field)
{
  static const char *const words[] = { "nan", "inf", "infinity" };
  const char *s = field->start;
  size_t n, w, i;

  if (s < field->end && (*s == '+' || *s == '-'))
    s++;
  n = (size_t)(field->end - s);
  for (w = 0; w < 3; w++)
    {
      if (strlen (words[w]) > n)
        continue;
      for (i = 0; i < strlen (words[w]); i++)
        if (lower (s[i]) != words[w][i])
          break;
      /* "nan(...)" too */
      if (i == strlen (words[w]) && (i == n || s[i] == '('))
        return 1;
    }
  return 0;
}

typedef enum
{
  NUMBER_OK = 0,
  NUMBER_BAD,
  NUMBER_NOT_FINITE,
  NUMBER_TOO_LARGE
} NumberResult;

/* [+-] (digits [. digits] | . digits) [(e|E) [+-] digits], the whole
 * field. The first 19 significant digits are kept (exact in 64 bits), the
 * rest only scale: the value is within a few double ulps, far below the
 * float it is stored as. */
static NumberResult
parse_number (const Span *field, double *value)
{
  const char *s = field->start, *end = field->end;
  uint64_t mantissa = 0;
  int negative = 0, digits = 0, significant = 0;
  long exponent = 0, scale = 0;
  double v;

  if (is_nan_or_inf (field))
    return NUMBER_NOT_FINITE;
  if (s < end && (*s == '+' || *s == '-'))
    negative = *s++ == '-';
  for (; s < end && is_digit (*s); s++)
    {
      digits = 1;
      if (significant < 19)
        {
          mantissa = mantissa * 10 + (uint64_t)(*s - '0');
          significant += mantissa != 0;
        }
      else if (scale < 100000)
        {
          scale++; /* a digit dropped before the point */
        }
    }
  if (s < end && *s == '.')
    {
      for (s++; s < end && is_digit (*s); s++)
        {
          digits = 1;
          if (significant < 19)
            {
              mantissa = mantissa * 10 + (uint64_t)(*s - '0');
              significant += mantissa != 0;
              scale--;
            }
        }
    }
  if (digits == 0)
    return NUMBER_BAD;
  if (s < end && (*s == 'e' || *s == 'E'))
    {
      int exp_negative = 0, exp_digits = 0;

      s++;
      if (s < end && (*s == '+' || *s == '-'))
        exp_negative = *s++ == '-';
      for (; s < end && is_digit (*s); s++, exp_digits++)
        if (exponent < 100000)
          exponent = exponent * 10 + (*s - '0');
      if (exp_digits == 0)
        return NUMBER_BAD;
      if (exp_negative)
        exponent = -exponent;
    }
  if (s != end)
    return NUMBER_BAD;

  exponent += scale;
  if (mantissa == 0)
    v = 0.0;
  else if (exponent >= 0)
    v = (double)mantissa
        * pow (10.0, (double)(exponent > 400 ? 400 : exponent));
  else
    v = (double)mantissa
        / pow (10.0, (double)(-exponent > 400 ? 400 : -exponent));
  if (!(fabs (v) <= FLT_MAX))
    return NUMBER_TOO_LARGE;
  *value = negative ? -v : v;
  return NUMBER_OK;
}

/* Reads @n numbers from @rest: all of them and nothing after. */
static int
read_numbers (Parser *p, Span *rest, const char *what, int n, double *values)
{
  char buf[32];
  Span field;
  int i;

  for (i = 0; i < n; i++)
    {
      if (!next_field (rest, &field))
        return fail (p, p->line, "%s: expected %d number%s, found %d", what, n,
                     n > 1 ? "s" : "", i);
      switch (parse_number (&field, &values[i]))
        {
          case NUMBER_OK:
            break;
          case NUMBER_NOT_FINITE:
            return fail (p, p->line, "%s: '%s' is not a finite number", what,
                         quote (&field, buf));
          case NUMBER_TOO_LARGE:
            return fail (p, p->line, "%s: '%s' is out of range", what,
                         quote (&field, buf));
          default:
            return fail (p, p->line, "%s: bad number '%s'", what,
                         quote (&field, buf));
        }
    }
  if (next_field (rest, &field))
    {
      double extra;

      if (parse_number (&field, &extra) == NUMBER_OK)
        return fail (p, p->line, "%s: expected %d number%s, found more", what,
                     n, n > 1 ? "s" : "");
      return fail (p, p->line, "%s: unexpected '%s' after the number%s", what,
                   quote (&field, buf), n > 1 ? "s" : "");
    }
  return 0;
}

static int
parse_title (Parser *p, Span *rest)
{
  const char *s = rest->start, *e = rest->end;
  size_t n;

  while (s < e && is_blank (*s))
    s++;
  while (e > s && is_blank (e[-1]))
    e--;
  if (e - s >= 2 && *s == '"' && e[-1] == '"')
    {
      s++;
      e--;
    }
  n = (size_t)(e - s);
  if (n >= sizeof (p->cube->title))
    n = sizeof (p->cube->title) - 1;
  memcpy (p->cube->title, s, n);
  p->cube->title[n] = '\0';
  return 0;
}

static int
parse_size (Parser *p, Span *rest)
{
  double v;
  size_t entries;

  if (p->size_line)
    return fail (p, p->line, "LUT_3D_SIZE repeated (first on line %d)",
                 p->size_line);
  if (read_numbers (p, rest, "LUT_3D_SIZE", 1, &v) != 0)
    return -1;
  if (v != floor (v) || v < TEXEL_CUBE_MIN_SIZE || v > TEXEL_CUBE_MAX_SIZE)
    return fail (p, p->line,
                 "LUT_3D_SIZE %g out of range: %d to %d "
                 "(integers) accepted",
                 v, TEXEL_CUBE_MIN_SIZE, TEXEL_CUBE_MAX_SIZE);
  p->size_line = p->line;
  p->cube->size = (int)v;
  p->needed = (long)p->cube->size * p->cube->size * p->cube->size;
  entries = (size_t)p->needed * 3;
  p->cube->table = malloc (entries * sizeof (float));
  if (p->cube->table == NULL)
    return fail (p, p->line, "out of memory for %ld entries", p->needed);
  return 0;
}

static int
parse_domain (Parser *p, Span *rest, const char *keyword, double *domain,
              int *line)
{
  double v[3];
  int c;

  if (*line)
    return fail (p, p->line, "%s repeated (first on line %d)", keyword, *line);
  if (read_numbers (p, rest, keyword, 3, v) != 0)
    return -1;
  for (c = 0; c < 3; c++)
    {
      if (fabs (v[c]) > DOMAIN_LIMIT)
        return fail (p, p->line, "%s: %g out of range (+-%g)", keyword, v[c],
                     DOMAIN_LIMIT);
      domain[c] = v[c];
    }
  *line = p->line;
  return 0;
}

/* Resolve's LUT_3D_INPUT_RANGE min max: one domain for all channels. */
static int
parse_input_range (Parser *p, Span *rest)
{
  double v[2];
  int c;

  if (p->range_line)
    return fail (p, p->line,
                 "LUT_3D_INPUT_RANGE repeated (first on line "
                 "%d)",
                 p->range_line);
  if (p->domain_min_line || p->domain_max_line)
    return fail (p, p->line,
                 "LUT_3D_INPUT_RANGE and DOMAIN_MIN / "
                 "DOMAIN_MAX both given");
  if (read_numbers (p, rest, "LUT_3D_INPUT_RANGE", 2, v) != 0)
    return -1;
  for (c = 0; c < 2; c++)
    if (fabs (v[c]) > DOMAIN_LIMIT)
      return fail (p, p->line, "LUT_3D_INPUT_RANGE: %g out of range (+-%g)",
                   v[c], DOMAIN_LIMIT);
  for (c = 0; c < 3; c++)
    {
      p->cube->domain_min[c] = v[0];
      p->cube->domain_max[c] = v[1];
    }
  p->range_line = p->line;
  return 0;
}

/* An upper-case word of letters, digits and underscores. */
static int
is_keyword (const Span *field)
{
  const char *s;

  if (!(*field->start >= 'A' && *field->start <= 'Z'))
    return 0;
  for (s = field->start; s < field->end; s++)
    if (!((*s >= 'A' && *s <= 'Z') || is_digit (*s) || *s == '_'))
      return 0;
  return 1;
}

static int
parse_keyword (Parser *p, const Span *keyword, Span *rest)
{
  TexelCube *cube = p->cube;
  char buf[32];

  if (p->entries > 0)
    return fail (p, p->line,
                 "keyword %s after the table (which starts on "
                 "line %d)",
                 quote (keyword, buf), p->first_entry_line);
  if (span_equals (keyword, "TITLE"))
    return parse_title (p, rest);
  if (span_equals (keyword, "LUT_3D_SIZE"))
    return parse_size (p, rest);
  if (span_equals (keyword, "LUT_1D_SIZE"))
    return fail (p, p->line,
                 "1D LUTs (LUT_1D_SIZE) are not supported: a 3D "
                 "LUT (LUT_3D_SIZE) is needed");
  if (span_equals (keyword, "DOMAIN_MIN"))
    {
      if (p->range_line)
        return fail (p, p->line,
                     "DOMAIN_MIN and LUT_3D_INPUT_RANGE both "
                     "given");
      return parse_domain (p, rest, "DOMAIN_MIN", cube->domain_min,
                           &p->domain_min_line);
    }
  if (span_equals (keyword, "DOMAIN_MAX"))
    {
      if (p->range_line)
        return fail (p, p->line,
                     "DOMAIN_MAX and LUT_3D_INPUT_RANGE both "
                     "given");
      return parse_domain (p, rest, "DOMAIN_MAX", cube->domain_max,
                           &p->domain_max_line);
    }
  if (span_equals (keyword, "LUT_3D_INPUT_RANGE"))
    return parse_input_range (p, rest);
  /* Another producer's keyword (LUT_1D_INPUT_RANGE, ...): skipped. */
  if (cube->n_skipped++ == 0)
    cube->first_skipped_line = p->line;
  return 0;
}

static int
parse_entry (Parser *p, Span *rest)
{
  double v[3];
  int c;

  if (!p->size_line)
    return fail (p, p->line, "table data before LUT_3D_SIZE");
  if (p->entries == p->needed)
    return fail (p, p->line, "more than the %ld entries of LUT_3D_SIZE %d",
                 p->needed, p->cube->size);
  if (read_numbers (p, rest, "entry", 3, v) != 0)
    return -1;
  for (c = 0; c < 3; c++)
    p->cube->table[(size_t)p->entries * 3 + c] = (float)v[c];
  if (p->entries++ == 0)
    p->first_entry_line = p->line;
  p->last_entry_line = p->line;
  return 0;
}

static int
parse_line (Parser *p, Span line)
{
  Span first, rest = line;
  char buf[32];

  if (!next_field (&rest, &first))
    return 0; /* blank or comment */
  /* NAN and INF look like keywords: numbers first. */
  if (is_digit (*first.start) || *first.start == '-' || *first.start == '+'
      || *first.start == '.' || is_nan_or_inf (&first))
    return parse_entry (p, &line);
  if (is_keyword (&first))
    return parse_keyword (p, &first, &rest);
  return fail (p, p->line, "unexpected '%s'", quote (&first, buf));
}

static void
compute_steps (TexelCube *cube)
{
  int n = cube->size, r, g, b, c, axis;
  size_t stride[3];

  stride[0] = 3;
  stride[1] = 3 * (size_t)n;
  stride[2] = 3 * (size_t)n * n;
  for (axis = 0; axis < 3; axis++)
    cube->max_step[axis] = 0.0;
  for (b = 0; b < n; b++)
    for (g = 0; g < n; g++)
      for (r = 0; r < n; r++)
        {
          const float *e
              = cube->table + stride[2] * b + stride[1] * g + stride[0] * r;
          int at[3] = { r, g, b };

          for (axis = 0; axis < 3; axis++)
            {
              if (at[axis] + 1 >= n)
                continue;
              for (c = 0; c < 3; c++)
                {
                  double d = fabs ((double)e[stride[axis] + c] - e[c]);

                  if (d > cube->max_step[axis])
                    cube->max_step[axis] = d;
                }
            }
        }
}

static int
finish (Parser *p)
{
  TexelCube *cube = p->cube;
  int c;

  if (!p->size_line)
    return fail (p, 0, "no LUT_3D_SIZE: not a 3D LUT");
  if (p->entries < p->needed)
    return fail (p, p->entries ? p->last_entry_line : p->line,
                 "%ld entries, LUT_3D_SIZE %d needs %ld", p->entries,
                 cube->size, p->needed);
  for (c = 0; c < 3; c++)
    if (!(cube->domain_max[c] - cube->domain_min[c] >= DOMAIN_MIN_WIDTH))
      return fail (p,
                   p->range_line ? p->range_line
                   : p->domain_max_line > p->domain_min_line
                       ? p->domain_max_line
                       : p->domain_min_line,
                   "the domain of channel %d is empty: "
                   "[%g, %g]",
                   c, cube->domain_min[c], cube->domain_max[c]);
  compute_steps (cube);
  return 0;
}

TexelCube *
texel_cube_parse (const char *data, size_t length, TexelCubeError *error)
{
  const char *s = data, *end = data != NULL ? data + length : data;
  Parser p;
  int c;

  memset (&p, 0, sizeof (p));
  p.error = error;
  if (error != NULL)
    {
      error->line = 0;
      error->message[0] = '\0';
    }
  p.cube = calloc (1, sizeof (TexelCube));
  if (p.cube == NULL)
    {
      fail (&p, 0, "out of memory");
      return NULL;
    }
  for (c = 0; c < 3; c++)
    p.cube->domain_max[c] = 1.0;

  /* A UTF-8 byte order mark. */
  if (end - s >= 3 && memcmp (s, "\xef\xbb\xbf", 3) == 0)
    s += 3;
  while (s < end)
    {
      Span line;

      line.start = s;
      while (s < end && *s != '\n' && *s != '\r')
        s++;
      line.end = s;
      if (s < end && *s == '\r')
        s++;
      if (s < end && *s == '\n' && (s == line.end || s[-1] == '\r'))
        s++;
      p.line++;
      if (parse_line (&p, line) != 0)
        goto failed;
    }
  if (finish (&p) != 0)
    goto failed;
  return p.cube;

failed:
  texel_cube_free (p.cube);
  return NULL;
}

void
texel_cube_free (TexelCube *cube)
{
  if (cube == NULL)
    return;
  free (cube->table);
  free (cube);
}
