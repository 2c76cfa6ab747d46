/* gst-texel: runs a fuzz target over files, without libFuzzer.
 *
 * Linked with each fuzz target in ordinary builds (gcc, no sanitizer
 * runtime), so the committed seed corpus and every crash ever found run as
 * regression tests in CI, under valgrind too. With -Dfuzzing=enabled (clang)
 * the same target links libFuzzer's main instead.
 *
 *   fuzz-TARGET FILE|DIR...
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
replay_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  uint8_t *data;
  long size;

  if (!f)
    {
      perror (path);
      return 1;
    }
  fseek (f, 0, SEEK_END);
  size = ftell (f);
  fseek (f, 0, SEEK_SET);
  /* An exact-size heap block, so that valgrind sees any read past it. */
  data = malloc (size > 0 ? (size_t)size : 1);
  if (size > 0 && fread (data, 1, (size_t)size, f) != (size_t)size)
    {
      perror (path);
      fclose (f);
      free (data);
      return 1;
    }
  fclose (f);
  LLVMFuzzerTestOneInput (data, (size_t)size);
  free (data);
  return 0;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

/* Every regular file of @dir, in name order (stable logs). */
static int
replay_dir (const char *dir, int *count)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, i;
  int failed = 0;

  if (!d)
    {
      perror (dir);
      return 1;
    }
  while ((e = readdir (d)))
    {
      if (e->d_name[0] == '.')
        continue;
      names = realloc (names, (n + 1) * sizeof (char *));
      names[n] = malloc (strlen (dir) + strlen (e->d_name) + 2);
      sprintf (names[n++], "%s/%s", dir, e->d_name);
    }
  closedir (d);
  qsort (names, n, sizeof (char *), compare_names);
  for (i = 0; i < n; i++)
    {
      failed |= replay_file (names[i]);
      (*count)++;
      free (names[i]);
    }
  free (names);
  return failed;
}

int
main (int argc, char **argv)
{
  int i, failed = 0, count = 0;

  LLVMFuzzerInitialize (&argc, &argv);
  for (i = 1; i < argc; i++)
    {
      struct stat st;

      if (stat (argv[i], &st) != 0)
        {
          perror (argv[i]);
          return 1;
        }
      if (S_ISDIR (st.st_mode))
        {
          failed |= replay_dir (argv[i], &count);
        }
      else
        {
          failed |= replay_file (argv[i]);
          count++;
        }
    }
  printf ("%s: %d input(s) replayed\n", argv[0], count);
  return failed || count == 0;
}
