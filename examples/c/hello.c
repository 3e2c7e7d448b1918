/* The smallest useful program: diff two page snapshots through the C ABI.
 * Build (after `make c-lib`):
 *   gcc -std=c11 -Wall -Werror -Iinclude examples/c/hello.c \
 *       target/c/libresponse_diff.a -lpthread -ldl -lm -o hello && ./hello
 */
#include <stdio.h>
#include <string.h>

#include "response_diff.h"

/* A cart list snapshot with `n` items. */
static size_t cart(char *buf, size_t cap, int n) {
  size_t len = (size_t)snprintf(buf, cap, "- list \"Cart\" [ref=e1]:\n");
  for (int i = 1; i <= n && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "  - listitem [ref=e%d]: Product %d\n", i + 1, i);
  return len;
}

int main(void) {
  char before[4096], after[4096];
  size_t before_len = cart(before, sizeof before, 20);
  size_t after_len = cart(after, sizeof after, 21); /* one item added */

  rd_detector *d = NULL;
  char *result = NULL;
  if (rd_detector_new(NULL, 0, &d) != RD_OK) return 1;
  rd_detector_detect(d, "tab", 3, before, before_len, NULL, 0, &result); /* mode "first" */
  rd_string_free(&result);
  rd_status s = rd_detector_detect(d, "tab", 3, after, after_len, NULL, 0, &result);
  if (s != RD_OK) {
    fprintf(stderr, "error: %s\n", rd_last_error());
    rd_detector_free(&d);
    return 1;
  }
  printf("%s\n", result); /* DiffResult JSON: mode "diff", the unified diff, metadata */
  rd_string_free(&result);
  rd_detector_free(&d);
  return 0;
}
