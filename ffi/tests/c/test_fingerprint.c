/* Fingerprints through the C ABI: the extractor script, a direct compare,
 * and a baseline store (save, compare by name and by hash, errors). */
#include "check.h"

int main(int argc, char **argv) {
  const char *fx = argc > 2 ? argv[2] : "tests/fixtures/fingerprint";
  size_t base_len, gone_len, same_len, dyn_len;
  char *base = read_file(fx, "case01.before.json", &base_len);
  char *gone = read_file(fx, "case01.after.json", &gone_len); /* button 'New Project' removed */
  char *dyn_before = read_file(fx, "case09.before.json", &same_len);
  char *dyn_after = read_file(fx, "case09.after.json", &dyn_len); /* reload: dates, ids */
  char *out = NULL;

  CHECK_CONTAINS(rd_fingerprint_script(), "function");
  CHECK_STATUS(rd_fingerprint_expression(S("{\"scope\": \"full\", \"depth\": \"minimal\"}"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"depth\":\"minimal\"");
  rd_string_free(&out);

  CHECK_STATUS(rd_fingerprint_compare(base, base_len, gone, gone_len, NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"type\":\"element_missing\"");
  CHECK_CONTAINS(out, "New Project");
  CHECK_CONTAINS(out, "\"severity\":\"error\"");
  rd_string_free(&out);
  CHECK_STATUS(rd_fingerprint_compare(dyn_before, same_len, dyn_after, dyn_len, S("info"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"status\":\"unchanged\"");
  rd_string_free(&out);

  rd_baseline_store *store = NULL;
  CHECK_STATUS(rd_baseline_store_new(NULL, 0, &store), RD_OK);
  CHECK_STATUS(rd_baseline_store_save(store, S("dashboard"), base, base_len), RD_OK);
  CHECK_STATUS(rd_baseline_store_compare(store, S("dashboard"), gone, gone_len, S("error"), &out), RD_OK);
  CHECK_CONTAINS(out, "element_missing");
  rd_string_free(&out);

  char *hash = NULL;
  CHECK_STATUS(rd_baseline_store_record(store, dyn_before, same_len, &hash), RD_OK);
  CHECK(hash != NULL && strlen(hash) == 16);
  if (hash) {
    CHECK_STATUS(rd_baseline_store_compare(store, hash, strlen(hash), dyn_after, dyn_len, NULL, 0, &out), RD_OK);
    CHECK_CONTAINS(out, "\"status\":\"unchanged\"");
    rd_string_free(&out);
  }
  rd_string_free(&hash);

  /* Errors. */
  CHECK_STATUS(rd_baseline_store_compare(store, S("nope"), gone, gone_len, NULL, 0, &out), RD_BASELINE_NOT_FOUND);
  CHECK_CONTAINS(rd_last_error(), "no baseline named `nope`");
  CHECK_STATUS(rd_baseline_store_save(store, S("../../etc/passwd"), base, base_len), RD_INVALID_NAME);
  CHECK_STATUS(rd_baseline_store_save(store, S("a/b"), base, base_len), RD_INVALID_NAME);
  CHECK_STATUS(rd_baseline_store_save(store, S(""), base, base_len), RD_INVALID_NAME);
  /* A malformed document (as opposed to malformed options) is a parse error with its line. */
  CHECK_STATUS(rd_fingerprint_compare(S("{\"url\": "), gone, gone_len, NULL, 0, &out), RD_PARSE_ERROR);
  CHECK_CONTAINS(rd_last_error(), "line 1");
  CHECK_STATUS(rd_fingerprint_compare(base, base_len, gone, gone_len, S("fatal"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "severityThreshold");
  CHECK_STATUS(rd_baseline_store_save(NULL, S("x"), base, base_len), RD_NULL_ARGUMENT);
  CHECK(out == NULL);

  rd_baseline_store_free(&store);
  rd_baseline_store_free(&store);
  CHECK(store == NULL);
  free(base);
  free(gone);
  free(dyn_before);
  free(dyn_after);
  return finish("test_fingerprint");
}
