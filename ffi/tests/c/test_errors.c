/* Every error path gives a status and a message, never a crash; outputs are
 * written only on success, and every _free is safe to repeat. */
#include "check.h"

int main(void) {
  rd_detector *d = NULL;
  char *out = NULL;

  /* NULL arguments. */
  CHECK_STATUS(rd_detector_new(NULL, 0, NULL), RD_NULL_ARGUMENT);
  CHECK_CONTAINS(rd_last_error(), "`detector_out` is NULL");
  CHECK_STATUS(rd_detector_detect(NULL, S("k"), S("x"), NULL, 0, &out), RD_NULL_ARGUMENT);
  CHECK_CONTAINS(rd_last_error(), "`detector`");
  CHECK(out == NULL);
  CHECK_STATUS(rd_detector_new(NULL, 0, &d), RD_OK);
  CHECK_STATUS(rd_detector_detect(d, NULL, 0, S("x"), NULL, 0, &out), RD_NULL_ARGUMENT);
  CHECK_CONTAINS(rd_last_error(), "`key`");
  CHECK_STATUS(rd_detector_detect(d, S("k"), NULL, 5, NULL, 0, &out), RD_NULL_ARGUMENT);
  CHECK_STATUS(rd_detector_detect(d, S("k"), S("x"), NULL, 0, NULL), RD_NULL_ARGUMENT);
  CHECK_STATUS(rd_detector_memory_usage(d, NULL), RD_NULL_ARGUMENT);
  CHECK_STATUS(rd_expectation_validate(NULL, 0, &out), RD_NULL_ARGUMENT);

  /* Invalid UTF-8. */
  const char bad[] = {'o', 'k', (char)0xC3, (char)0x28, 0};
  CHECK_STATUS(rd_detector_detect(d, S("k"), bad, 4, NULL, 0, &out), RD_INVALID_UTF8);
  CHECK_CONTAINS(rd_last_error(), "`text` is not valid UTF-8 (first bad byte at offset 2)");
  CHECK_STATUS(rd_detector_detect(d, bad, 4, S("x"), NULL, 0, &out), RD_INVALID_UTF8);
  CHECK_STATUS(rd_expectation_validate(bad, 4, &out), RD_INVALID_UTF8);
  CHECK(out == NULL);

  /* Invalid JSON. */
  CHECK_STATUS(rd_detector_new(S("{\"maxStoredBytes\": "), &d), RD_INVALID_JSON);
  CHECK(d != NULL); /* the earlier detector is untouched: outputs only on success */
  CHECK_STATUS(rd_detector_detect(d, S("k"), S("x"), S("{nope"), &out), RD_INVALID_JSON);
  CHECK_STATUS(rd_expectation_validate(S("[1, 2"), &out), RD_INVALID_JSON);
  CHECK_STATUS(rd_response_render(S("{\"result\": "), S("click"), NULL, 0, NULL, NULL, 0, &out), RD_INVALID_JSON);
  CHECK_STATUS(rd_expectation_merge(S("click"), S("[{]"), &out), RD_INVALID_JSON);

  /* Unknown option keys and out-of-range values name the field. */
  CHECK_STATUS(rd_detector_new(S("{\"maxStoreBytes\": 1}"), &d), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "detectorConfig.maxStoreBytes");
  CHECK_STATUS(rd_detector_detect(d, S("k"), S("x"), S("{\"treshold\": 0.5}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "diffOptions.treshold");
  CHECK_STATUS(rd_detector_detect(d, S("k"), S("x"), S("{\"threshold\": 2}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "diffOptions.threshold");
  CHECK_STATUS(rd_expectation_validate(S("{\"consoleOptions\": {\"patterns\": [\"(\"]}}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "expectation.consoleOptions.patterns[0]");
  CHECK_STATUS(rd_expectation_merge(S("click"), S("{\"includeSnapshot\": true}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "layers");
  CHECK_STATUS(rd_expectation_merge(S("click"), S("[{}, {\"bogus\": 1}]"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "layers[1].bogus");
  CHECK_STATUS(rd_response_render(S("{\"snapshot\": {\"aria\": \"- button\"}}"), S("click"),
                                  S("[{\"snapshotOptions\": {\"selector\": \"div > a\"}}]"), NULL, NULL, 0, &out),
               RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "expectation.snapshotOptions.selector");
  CHECK(out == NULL);

  /* Size limits. */
  rd_detector *small = NULL;
  CHECK_STATUS(rd_detector_new(S("{\"maxInputBytes\": 4}"), &small), RD_OK);
  CHECK_STATUS(rd_detector_detect(small, S("k"), S("12345"), NULL, 0, &out), RD_INPUT_TOO_LARGE);
  CHECK_CONTAINS(rd_last_error(), "over the limit of 4 bytes");

  /* Messages for statuses. */
  CHECK(strcmp(rd_status_message(RD_INVALID_UTF8), "a string was not valid UTF-8") == 0);
  CHECK(strcmp(rd_status_message(RD_OK), "ok") == 0);

  /* Frees: NULL is fine, and a second free is harmless by design. */
  rd_string_free(NULL);
  rd_string_free(&out);
  rd_detector_free(NULL);
  rd_detector_free(&small);
  rd_detector_free(&small);
  CHECK(small == NULL);
  rd_detector_free(&d);
  rd_detector_free(&d);
  return finish("test_errors");
}
