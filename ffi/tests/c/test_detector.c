/* Detector round trip on the shared fixtures: first -> unchanged -> diff -> full,
 * plus store / clear / memory usage, the stateless compare and the formatter. */
#include "check.h"

int main(int argc, char **argv) {
  const char *fx = argc > 1 ? argv[1] : "tests/fixtures/diff";
  size_t before_len, after_len, nav_len;
  char *before = read_file(fx, "case01_one_line.before.yml", &before_len);
  char *after = read_file(fx, "case01_one_line.after.yml", &after_len);
  char *nav = read_file(fx, "case04_navigation.after.yml", &nav_len);

  rd_detector *d = NULL;
  CHECK_STATUS(rd_detector_new(S("{\"maxStoredBytes\": 1048576}"), &d), RD_OK);
  CHECK(d != NULL);

  char *out = NULL;
  CHECK_STATUS(rd_detector_detect(d, S("tab-1"), before, before_len, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"mode\":\"first\"");
  rd_string_free(&out);
  CHECK(out == NULL);

  CHECK_STATUS(rd_detector_detect(d, S("tab-1"), before, before_len, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"mode\":\"unchanged\"");
  CHECK_CONTAINS(out, "No changes since the previous response (67 lines).");
  rd_string_free(&out);

  CHECK_STATUS(rd_detector_detect(d, S("tab-1"), after, after_len, S("{\"format\": \"unified\", \"context\": 1}"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"mode\":\"diff\"");
  CHECK_CONTAINS(out, "+        - paragraph [ref=e29]: $299.00");
  CHECK_CONTAINS(out, "\"addedLines\":1");
  rd_string_free(&out);

  CHECK_STATUS(rd_detector_detect(d, S("tab-1"), nav, nav_len, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"mode\":\"full\"");
  rd_string_free(&out);

  size_t used = 0;
  CHECK_STATUS(rd_detector_memory_usage(d, &used), RD_OK);
  CHECK(used >= nav_len && used <= 1048576);

  bool stored = false, removed = false;
  CHECK_STATUS(rd_detector_store(d, S("tab-2"), before, before_len, &stored), RD_OK);
  CHECK(stored);
  CHECK_STATUS(rd_detector_clear(d, S("tab-2"), &removed), RD_OK);
  CHECK(removed);
  CHECK_STATUS(rd_detector_clear_all(d), RD_OK);
  CHECK_STATUS(rd_detector_memory_usage(d, &used), RD_OK);
  CHECK(used == 0);

  /* Stateless compare and the bare formatter. */
  CHECK_STATUS(rd_diff_compare(before, before_len, after, after_len, S("{\"format\": \"minimal\"}"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"formattedDiff\":\"67 lines, 2 changed: +1 \xe2\x88\x92" "1\\n-         - paragraph [ref=e29]: $349.00\\n+         - paragraph [ref=e29]: $299.00\\n\"");
  rd_string_free(&out);
  CHECK_STATUS(rd_diff_compare(NULL, 0, after, after_len, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"mode\":\"first\"");
  rd_string_free(&out);
  CHECK_STATUS(rd_diff_format(S("a\nb\nc\n"), S("a\nB\nc\n"), S("{\"format\": \"split\", \"context\": 0}"), &out), RD_OK);
  CHECK(out && strcmp(out, "@@ -2 +2 @@\nbefore:\n  b\nafter:\n  B\n") == 0);
  rd_string_free(&out);

  rd_detector_free(&d);
  CHECK(d == NULL);
  rd_detector_free(&d); /* harmless */
  free(before);
  free(after);
  free(nav);
  return finish("test_detector");
}
