/* Expectation validation and merge, and response rendering with a diff chain. */
#include "check.h"

int main(void) {
  char *out = NULL;

  CHECK_STATUS(rd_expectation_validate(S("{\"includeConsole\": false, \"diffOptions\": {\"enabled\": true}}"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"includeConsole\":false");
  rd_string_free(&out);
  CHECK_STATUS(rd_expectation_validate(S("{}"), NULL), RD_OK);

  CHECK_STATUS(rd_expectation_merge(S("browser_take_screenshot"),
                                    S("[{\"diffOptions\": {\"enabled\": true, \"context\": 1}},"
                                      " {\"diffOptions\": {\"format\": \"minimal\"}}]"),
                                    &out),
               RD_OK);
  CHECK_CONTAINS(out, "\"includeSnapshot\":false");
  CHECK_CONTAINS(out, "\"enabled\":true");
  CHECK_CONTAINS(out, "\"context\":1");
  CHECK_CONTAINS(out, "\"format\":\"minimal\"");
  rd_string_free(&out);

  rd_detector *d = NULL;
  CHECK_STATUS(rd_detector_new(NULL, 0, &d), RD_OK);
  const char *layers = "[{\"diffOptions\": {\"enabled\": true}}]";
  char page[4096];
  int n = 0;
  n += snprintf(page + n, sizeof page - (size_t)n, "{\"result\": \"Clicked\", \"snapshot\": {\"aria\": \"");
  for (int i = 0; i < 30; i++)
    n += snprintf(page + n, sizeof page - (size_t)n, "- listitem [ref=e%d]: item %d\\n", i, i);
  n += snprintf(page + n, sizeof page - (size_t)n, "\"}}");

  CHECK_STATUS(rd_response_render(page, (size_t)n, S("browser_click"), layers, strlen(layers), d, S("tab-1"), &out), RD_OK);
  CHECK_CONTAINS(out, "### Result\\nClicked");
  CHECK_CONTAINS(out, "\"mode\":\"first\"");
  rd_string_free(&out);

  char *p = strstr(page, "item 7\\n");
  CHECK(p != NULL);
  if (p) memcpy(p, "ITEM", 4);
  CHECK_STATUS(rd_response_render(page, (size_t)n, S("browser_click"), layers, strlen(layers), d, S("tab-1"), &out), RD_OK);
  CHECK_CONTAINS(out, "### Page snapshot (patch)\\n");
  CHECK_CONTAINS(out, "\\n~ listitem [ref=e7]: ITEM 7\\n");
  rd_string_free(&out);

  /* Without a detector nothing is diffed. */
  CHECK_STATUS(rd_response_render(page, (size_t)n, S("browser_click"), NULL, 0, NULL, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"snapshotDiff\":null");
  rd_string_free(&out);

  rd_detector_free(&d);
  CHECK(strcmp(rd_version(), "0.1.0") == 0);
  return finish("test_render");
}
