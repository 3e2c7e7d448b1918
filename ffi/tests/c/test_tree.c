/* Tree parse, print and diff through the C ABI on the shared fixtures. */
#include "check.h"

int main(int argc, char **argv) {
  const char *fx = argc > 3 ? argv[3] : "tests/fixtures/aria";
  size_t b_len, a_len, v_len, w_len;
  char *before = read_file(fx, "case02.before.yml", &b_len); /* a button is renamed */
  char *after = read_file(fx, "case02.after.yml", &a_len);
  char *v_before = read_file(fx, "case03.before.yml", &v_len); /* a search box value changes */
  char *v_after = read_file(fx, "case03.after.yml", &w_len);
  char *out = NULL, *json = NULL, *aria = NULL;

  /* Parse to the model's JSON and print it back: the round trip is exact. */
  CHECK_STATUS(rd_tree_parse(before, b_len, false, &json), RD_OK);
  CHECK_CONTAINS(json, "\"role\":");
  CHECK_STATUS(rd_tree_print(json, json ? strlen(json) : 0, &aria), RD_OK);
  CHECK(aria && strlen(aria) + 1 >= b_len && strncmp(aria, before, strlen(aria)) == 0);
  rd_string_free(&aria);

  /* Renamed button: one change of name, not remove + add (content identity). */
  CHECK_STATUS(rd_tree_diff(before, b_len, after, a_len, S("{\"identity\": \"content\"}"), &out), RD_OK);
  CHECK_CONTAINS(out, "~ ");
  CHECK_CONTAINS(out, "Added to cart");
  CHECK(strstr(out ? out : "", "\n+ ") == NULL && strncmp(out ? out : "", "+ ", 2) != 0);
  rd_string_free(&out);

  /* Value change, as YAML and as JSON; the JSON model is accepted as input too. */
  CHECK_STATUS(rd_tree_diff(v_before, v_len, v_after, w_len, S("{\"format\": \"yaml\"}"), &out), RD_OK);
  CHECK_CONTAINS(out, "trail shoes");
  CHECK_CONTAINS(out, "unchanged_count:");
  rd_string_free(&out);
  CHECK_STATUS(rd_tree_diff(json, strlen(json), after, a_len, S("{\"format\": \"json\"}"), &out), RD_OK);
  CHECK_CONTAINS(out, "\"unchanged_count\":");
  rd_string_free(&out);
  rd_string_free(&json);

  /* Errors: malformed snapshot (line number), bad options, CSS scope. */
  CHECK_STATUS(rd_tree_parse(S("- button \"unterminated\n"), false, &out), RD_PARSE_ERROR);
  CHECK_CONTAINS(rd_last_error(), "line 1");
  CHECK_STATUS(rd_tree_parse(S("- button \"unterminated\n"), true, &out), RD_OK);
  rd_string_free(&out);
  CHECK_STATUS(rd_tree_diff(before, b_len, after, a_len, S("{\"format\": \"xml\"}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "treeDiffOptions.format");
  CHECK_STATUS(rd_tree_diff(before, b_len, after, a_len, S("{\"scope\": \"div > a\"}"), &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "CSS");
  CHECK_STATUS(rd_tree_print(S("{\"roots\": 3}"), &out), RD_PARSE_ERROR);
  CHECK(out == NULL);

  free(before);
  free(after);
  free(v_before);
  free(v_after);
  return finish("test_tree");
}
