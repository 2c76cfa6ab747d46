/* gst-texel: the ring of sums gathered on the GPU for the host
 * (texel-cuda-sums.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "texel-cuda-sums.cuh"

/* More entries than frames an element keeps in flight (at most 4, plus
 * the one being submitted): a unit finds its entry complete unless the
 * host stopped taking. */
#define TEXEL_SUMS_ENTRIES 8
/* Calls a unit may make (an element's bands: at most 8). */
#define TEXEL_SUMS_PARTS 8
#define TEXEL_SUMS_ENTRY_WORDS (TEXEL_SUMS_PARTS * TEXEL_SUMS_WORDS)

typedef struct
{
  int open;   /* holds unit @unit's parts, not taken */
  int broken; /* a call of the unit had no part left */
  uint64_t unit, tag;
  int parts; /* parts handed out */
} TexelSumsEntry;

struct TexelCudaSums
{
  /* TEXEL_SUMS_ENTRIES entries of TEXEL_SUMS_ENTRY_WORDS words each. */
  unsigned long long *device; /* cudaMalloc */
  unsigned long long *host;   /* cudaHostAlloc: the parts copied back */
  TexelSumsEntry entries[TEXEL_SUMS_ENTRIES];
  int next; /* the entry the next unit takes */
  /* The unit of the last begin and its entry, -1 where the unit gathers
   * nothing (its entry was in flight): its later calls gather nothing
   * either, or its sums would miss the first calls' rows. */
  int have_unit;
  uint64_t unit;
  int current;
};

static cudaError_t
texel_sums_new (TexelCudaSums **sums)
{
  const size_t bytes = sizeof (unsigned long long) * TEXEL_SUMS_ENTRIES
                       * TEXEL_SUMS_ENTRY_WORDS;
  TexelCudaSums *self = (TexelCudaSums *)calloc (1, sizeof (TexelCudaSums));
  cudaError_t err;

  if (self == NULL)
    return cudaErrorMemoryAllocation;
  err = cudaMalloc ((void **)&self->device, bytes);
  if (err == cudaSuccess)
    err = cudaHostAlloc ((void **)&self->host, bytes, cudaHostAllocDefault);
  if (err != cudaSuccess)
    {
      texel_cuda_sums_free (self);
      return err;
    }
  *sums = self;
  return cudaSuccess;
}

/* The entry unit @unit gathers into, opened on its first call; -1 where
 * the next entry is still in flight. */
static int
texel_sums_entry (TexelCudaSums *self, const TexelCudaFence *fence,
                  uint64_t unit, uint64_t tag)
{
  TexelSumsEntry *e;

  if (self->have_unit && self->unit == unit)
    return self->current;
  self->have_unit = 1;
  self->unit = unit;
  self->current = -1;
  e = &self->entries[self->next];
  /* An entry complete but not taken is dropped: the host stopped
   * asking. */
  if (e->open && e->unit > fence->complete)
    return -1;
  memset (e, 0, sizeof (*e));
  e->open = 1;
  e->unit = unit;
  e->tag = tag;
  self->current = self->next;
  self->next = (self->next + 1) % TEXEL_SUMS_ENTRIES;
  return self->current;
}

cudaError_t
texel_cuda_sums_begin (TexelCudaSums **sums, const TexelCudaFence *fence,
                       uint64_t tag, cudaStream_t stream,
                       unsigned long long **part)
{
  TexelSumsEntry *e;
  cudaError_t err;
  int i;

  *part = NULL;
  if (fence == NULL || fence->current == UINT64_MAX)
    return cudaSuccess;
  if (*sums == NULL && (err = texel_sums_new (sums)) != cudaSuccess)
    return err;
  i = texel_sums_entry (*sums, fence, fence->current, tag);
  if (i < 0)
    return cudaSuccess;
  e = &(*sums)->entries[i];
  if (e->parts == TEXEL_SUMS_PARTS)
    {
      e->broken = 1;
      return cudaSuccess;
    }
  *part = (*sums)->device + i * TEXEL_SUMS_ENTRY_WORDS
          + e->parts++ * TEXEL_SUMS_WORDS;
  return cudaMemsetAsync (*part, 0, TEXEL_SUMS_WORDS * sizeof (**part), stream);
}

cudaError_t
texel_cuda_sums_end (TexelCudaSums *sums, const unsigned long long *part,
                     cudaStream_t stream)
{
  size_t offset = part - sums->device;

  return cudaMemcpyAsync (sums->host + offset, part,
                          TEXEL_SUMS_WORDS * sizeof (*part),
                          cudaMemcpyDeviceToHost, stream);
}

int
texel_cuda_sums_take (TexelCudaSums *sums, const TexelCudaFence *fence,
                      uint64_t *tag, unsigned long long *words)
{
  for (;;)
    {
      TexelSumsEntry *oldest = NULL;
      const unsigned long long *host;
      int i, p, w;

      if (sums == NULL || fence == NULL)
        return 0;
      for (i = 0; i < TEXEL_SUMS_ENTRIES; i++)
        {
          TexelSumsEntry *e = &sums->entries[i];

          if (e->open && e->unit <= fence->complete
              && (oldest == NULL || e->unit < oldest->unit))
            oldest = e;
        }
      if (oldest == NULL)
        return 0;
      oldest->open = 0;
      if (oldest->broken)
        continue;
      host = sums->host + (oldest - sums->entries) * TEXEL_SUMS_ENTRY_WORDS;
      memset (words, 0, TEXEL_SUMS_WORDS * sizeof (*words));
      for (p = 0; p < oldest->parts; p++)
        for (w = 0; w < TEXEL_SUMS_WORDS; w++)
          words[w] += host[p * TEXEL_SUMS_WORDS + w];
      *tag = oldest->tag;
      return 1;
    }
}

void
texel_cuda_sums_free (TexelCudaSums *sums)
{
  if (sums == NULL)
    return;
  if (sums->device != NULL)
    (void)cudaFree (sums->device);
  if (sums->host != NULL)
    (void)cudaFreeHost (sums->host);
  free (sums);
}
