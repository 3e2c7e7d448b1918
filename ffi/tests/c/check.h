/* Tiny assertion helpers shared by the C tests. */
#ifndef RD_CHECK_H
#define RD_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "response_diff.h"

static int rd_failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      rd_failures++;                                                           \
    }                                                                          \
  } while (0)

#define CHECK_STATUS(call, want)                                               \
  do {                                                                         \
    rd_status got_ = (call);                                                   \
    if (got_ != (want)) {                                                      \
      const char *e_ = rd_last_error();                                        \
      fprintf(stderr, "%s:%d: %s returned %d, want %d (%s)\n", __FILE__,       \
              __LINE__, #call, (int)got_, (int)(want), e_ ? e_ : "no error");  \
      rd_failures++;                                                           \
    }                                                                          \
  } while (0)

#define CHECK_CONTAINS(haystack, needle)                                       \
  do {                                                                         \
    const char *h_ = (haystack);                                               \
    if (h_ == NULL || strstr(h_, (needle)) == NULL) {                          \
      fprintf(stderr, "%s:%d: expected \"%s\" in: %s\n", __FILE__, __LINE__,   \
              (needle), h_ ? h_ : "(null)");                                   \
      rd_failures++;                                                           \
    }                                                                          \
  } while (0)

/* Reads a whole file; the caller frees it. */
static inline char *read_file(const char *dir, const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  buf[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return buf;
}

#define S(lit) (lit), (sizeof(lit) - 1)

static inline int finish(const char *name) {
  if (rd_failures) {
    fprintf(stderr, "%s: %d check(s) failed\n", name, rd_failures);
    return 1;
  }
  printf("%s: ok\n", name);
  return 0;
}

#endif
