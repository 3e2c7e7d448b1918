/* Refs carried over across re-rendered snapshots, and snapshot patches
 * (removal runs, focus, restore by reference) applied back, through the C ABI. */
#include <jansson.h>

#include "check.h"

/* A string known only at run time, and its length. */
#define STR(p) (p), strlen(p)

/* A shared fixture of patches (tests/fixtures/patches/<file>): over
 * elements without a ref (issue 42), over chrome-devtools-mcp's snapshots
 * (issue 43). The writer gives exactly `patch`, and applying it gives `new`. */
static void patch_fixtures(const char *diff_dir, const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/../patches/%s", diff_dir, file);
  json_error_t jerr;
  json_t *fixture = json_load_file(path, 0, &jerr);
  CHECK(fixture != NULL);
  if (!fixture) {
    fprintf(stderr, "%s: %s\n", path, jerr.text);
    return;
  }
  json_t *cases = json_object_get(fixture, "cases");
  CHECK(json_array_size(cases) >= 4);
  size_t i;
  json_t *c;
  json_array_foreach(cases, i, c) {
    const char *old = json_string_value(json_object_get(c, "old"));
    const char *new_ = json_string_value(json_object_get(c, "new"));
    const char *want = json_string_value(json_object_get(c, "patch"));
    json_t *seen = json_object_get(c, "seen");
    json_t *opts = json_pack("{s:O}", "seen", seen);
    char *options = json_dumps(opts, 0);
    char *seen_json = json_dumps(seen, 0);
    char *patch = NULL, *back = NULL;
    CHECK_STATUS(rd_snapshot_patch(STR(old), STR(new_), STR(options), &patch), RD_OK);
    json_t *got = patch ? json_loads(patch, 0, &jerr) : NULL;
    const char *text = json_string_value(json_object_get(got, "text"));
    CHECK(text && strcmp(text, want) == 0);
    if (!text || strcmp(text, want) != 0) {
      fprintf(stderr, "%s: got %s\n", json_string_value(json_object_get(c, "name")), patch ? patch : "(null)");
    }
    CHECK_STATUS(rd_snapshot_patch_apply(STR(old), STR(want), STR(seen_json), &back), RD_OK);
    CHECK(back && strcmp(back, new_) == 0);
    rd_string_free(&back);
    rd_string_free(&patch);
    json_decref(got);
    free(seen_json);
    free(options);
    json_decref(opts);
  }
  json_decref(fixture);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <tests/fixtures/diff>\n", argv[0]);
    return 2;
  }
  rd_ref_carrier *carrier = NULL;
  char *out = NULL, *patch = NULL, *back = NULL;

  CHECK_STATUS(rd_ref_carrier_new(S("{\"viewsPerKey\": 4}"), &carrier), RD_OK);

  /* First view: node ids become the refs. */
  CHECK_STATUS(rd_ref_carrier_carry(carrier, S("tab"),
                                    S("- list [ref=n1]:\n  - listitem \"Tea\" [ref=n2]\n  - listitem \"Cake\" [ref=n3]"),
                                    &out), RD_OK);
  CHECK_CONTAINS(out, "\"carried\":0,\"fresh\":3");
  rd_string_free(&out);

  /* The list is rebuilt with new node ids and one item more: the same
   * elements keep their refs, only the new one gets a new ref. */
  CHECK_STATUS(rd_ref_carrier_carry(carrier, S("tab"),
                                    S("- list [ref=n7]:\n  - listitem \"Tea\" [ref=n8]\n  - listitem \"Cake\" [ref=n9]\n  - listitem \"Pie\" [ref=n10]"),
                                    &out), RD_OK);
  CHECK_CONTAINS(out, "\"snapshot\":\"- list [ref=n1]:\\n  - listitem \\\"Tea\\\" [ref=n2]\\n  - listitem \\\"Cake\\\" [ref=n3]\\n  - listitem \\\"Pie\\\" [ref=n10]\"");
  CHECK_CONTAINS(out, "\"refs\":{\"n7\":\"n1\",\"n8\":\"n2\",\"n9\":\"n3\",\"n10\":\"n10\"}");
  CHECK_CONTAINS(out, "\"carried\":3,\"fresh\":1");
  rd_string_free(&out);
  /* The agent's n2 is node n8 now; n8 was never shown. */
  char *source = NULL;
  CHECK_STATUS(rd_ref_carrier_source_ref(carrier, S("tab"), S("n2"), &source), RD_OK);
  CHECK(source && strcmp(source, "n8") == 0);
  rd_string_free(&source);
  CHECK_STATUS(rd_ref_carrier_source_ref(carrier, S("tab"), S("n8"), &source), RD_OK);
  CHECK(source == NULL);

  size_t used = 0;
  CHECK_STATUS(rd_ref_carrier_memory_usage(carrier, &used), RD_OK);
  CHECK(used > 0);
  bool removed = false;
  CHECK_STATUS(rd_ref_carrier_clear(carrier, S("tab"), &removed), RD_OK);
  CHECK(removed);

  /* Two elements with one node id: a clear error, nothing written. */
  CHECK_STATUS(rd_ref_carrier_carry(carrier, S("tab"), S("- button \"A\" [ref=x]\n- button \"B\" [ref=x]"), &out),
               RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "node id `x` is on two elements");
  CHECK(out == NULL);
  CHECK_STATUS(rd_ref_carrier_new(S("{\"viewsPerKey\": 0}"), &carrier), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "carrierConfig.viewsPerKey");
  CHECK_STATUS(rd_ref_carrier_carry(NULL, S("tab"), S("- button \"A\""), &out), RD_NULL_ARGUMENT);

  /* Without a store: the earlier views as a JSON array. */
  CHECK_STATUS(rd_refs_carry(S("[\"- button \\\"Go\\\" [ref=e1]\"]"), S("- button \"Go\" [ref=z9]"),
                             NULL, 0, &out), RD_OK);
  CHECK_CONTAINS(out, "\"refs\":{\"z9\":\"e1\"}");
  rd_string_free(&out);
  CHECK_STATUS(rd_refs_carry(S("{}"), S("- button \"Go\""), NULL, 0, &out), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "previous");

  /* Patches: a run of removals is one line, a focus move one line. */
  const char old_text[] = "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]\n  - listitem \"Cake\" [ref=e3]\n  - listitem \"Pie\" [ref=e4]\n- button \"Go\" [active] [ref=e5]";
  const char filtered[] = "- list [ref=e1]:\n  - listitem \"Cake\" [ref=e3]\n- button \"Go\" [ref=e5]";
  CHECK_STATUS(rd_snapshot_patch(S(old_text), S(filtered), NULL, 0, &patch), RD_OK);
  CHECK_CONTAINS(patch, "\"text\":\"- [e2 e4]\\n~ focus none\"");
  CHECK_CONTAINS(patch, "\"removed\":2");
  rd_string_free(&patch);
  CHECK_STATUS(rd_snapshot_patch_apply(S(old_text), S("- [e2 e4]\n~ focus none"), NULL, 0, &back), RD_OK);
  CHECK(back && strcmp(back, filtered) == 0);
  rd_string_free(&back);

  /* Restored by reference from a seen snapshot, and applied back with it. */
  const char seen[] = "[\"- list [ref=e1]:\\n  - listitem \\\"Tea\\\" [ref=e2]\\n  - listitem \\\"Cake\\\" [ref=e3]\\n  - listitem \\\"Pie\\\" [ref=e4]\\n- button \\\"Go\\\" [active] [ref=e5]\"]";
  CHECK_STATUS(rd_snapshot_patch(S(filtered), S(old_text), S("{\"seen\": [\"- list [ref=e1]:\\n  - listitem \\\"Tea\\\" [ref=e2]\\n  - listitem \\\"Pie\\\" [ref=e4]\"]}"), &patch), RD_OK);
  CHECK_CONTAINS(patch, "\"text\":\"+ first in [e1]: [e2] as last shown\\n+ after [e3]: [e4] as last shown\\n~ focus [e5]\"");
  CHECK_CONTAINS(patch, "\"restored\":2");
  rd_string_free(&patch);
  CHECK_STATUS(rd_snapshot_patch_apply(S(filtered), S("+ first in [e1]: [e2] as last shown\n+ after [e3]: [e4] as last shown\n~ focus [e5]"),
                                       S(seen), &back), RD_OK);
  CHECK(back && strcmp(back, old_text) == 0);
  rd_string_free(&back);
  /* Without the seen snapshots the restore cannot be applied: it says why. */
  CHECK_STATUS(rd_snapshot_patch_apply(S(filtered), S("+ first in [e1]: [e2] as last shown"), NULL, 0, &back),
               RD_PARSE_ERROR);
  CHECK_CONTAINS(rd_last_error(), "no seen snapshot has it");
  CHECK(back == NULL);
  /* Restoring off: every element printed. */
  CHECK_STATUS(rd_snapshot_patch(S(filtered), S(old_text), S("{\"seen\": [], \"restore\": false}"), &patch), RD_OK);
  CHECK_CONTAINS(patch, "- listitem \\\"Tea\\\" [ref=e2]");
  rd_string_free(&patch);
  /* A sort: one order line, applied back exactly (issue 29). */
  const char by_name[] = "- table [ref=t]:\n  - rowgroup [ref=g]:\n    - row \"Ada 36\" [ref=r0]\n    - row \"Bob 25\" [ref=r1]\n    - row \"Cy 41\" [ref=r2]\n- button \"Next\" [ref=b]";
  const char by_age[] = "- table [ref=t]:\n  - rowgroup [ref=g]:\n    - row \"Bob 25\" [ref=r1]\n    - row \"Ada 36\" [ref=r0]\n    - row \"Cy 41\" [ref=r2]\n- button \"Next\" [ref=b]";
  CHECK_STATUS(rd_snapshot_patch(S(by_name), S(by_age), NULL, 0, &patch), RD_OK);
  CHECK_CONTAINS(patch, "\"text\":\"~ order [r1 r0]\"");
  CHECK_CONTAINS(patch, "\"moved\":2");
  rd_string_free(&patch);
  CHECK_STATUS(rd_snapshot_patch_apply(S(by_name), S("~ order [r1 r0]"), NULL, 0, &back), RD_OK);
  CHECK(back && strcmp(back, by_age) == 0);
  rd_string_free(&back);
  CHECK_STATUS(rd_snapshot_patch_apply(S(by_name), S("~ order [r1 b]"), NULL, 0, &back), RD_PARSE_ERROR);
  CHECK_CONTAINS(rd_last_error(), "[b] is not a sibling of [r1]");
  CHECK(back == NULL);

  /* A row dragged to another list: the line that places it, no removal
     (issue 37); the older form with a removal line applies the same. */
  const char todo[] = "- list \"To do\" [ref=a]:\n  - listitem \"Buy milk\" [ref=a1]\n  - listitem \"Walk the dog\" [ref=a2]:\n    - button \"Done\" [ref=a3]\n- list \"Done\" [ref=b]:\n  - listitem \"Pay rent\" [ref=b1]";
  const char done[] = "- list \"To do\" [ref=a]:\n  - listitem \"Buy milk\" [ref=a1]\n- list \"Done\" [ref=b]:\n  - listitem \"Walk the dog\" [ref=a2]:\n    - button \"Done\" [ref=a3]\n  - listitem \"Pay rent\" [ref=b1]";
  CHECK_STATUS(rd_snapshot_patch(S(todo), S(done), NULL, 0, &patch), RD_OK);
  CHECK_CONTAINS(patch, "\"text\":\"+ first in [b]: [a2] as last shown\"");
  CHECK_CONTAINS(patch, "\"moved\":1");
  CHECK_CONTAINS(patch, "\"removed\":0");
  rd_string_free(&patch);
  CHECK_STATUS(rd_snapshot_patch_apply(S(todo), S("+ first in [b]: [a2] as last shown"), NULL, 0, &back), RD_OK);
  CHECK(back && strcmp(back, done) == 0);
  rd_string_free(&back);
  CHECK_STATUS(rd_snapshot_patch_apply(S(todo), S("- [a2]\n+ first in [b]: [a2] as last shown"), NULL, 0, &back), RD_OK);
  CHECK(back && strcmp(back, done) == 0);
  rd_string_free(&back);

  /* A change a patch cannot say (a ref on two elements names neither):
   * null, use a line diff. */
  CHECK_STATUS(rd_snapshot_patch(S("- button \"a\" [ref=e1]\n- button \"b\" [ref=e1]"), S("- text: b"), NULL, 0, &patch), RD_OK);
  CHECK(patch && strcmp(patch, "null") == 0);
  rd_string_free(&patch);
  /* Elements without a ref: named by address. */
  CHECK_STATUS(rd_snapshot_patch(S("- text: a"), S("- text: b"), NULL, 0, &patch), RD_OK);
  CHECK_CONTAINS(patch, "\"text\":\"~ [/1] text: b\"");
  rd_string_free(&patch);
  patch_fixtures(argv[1], "refless.json");
  patch_fixtures(argv[1], "devtools.json");
  patch_fixtures(argv[1], "restores.json");
  CHECK_STATUS(rd_snapshot_patch(S("- text: a"), S("- text: b"), S("{\"seen\": 3}"), &patch), RD_INVALID_OPTION);
  CHECK_CONTAINS(rd_last_error(), "patchOptions.seen");

  rd_ref_carrier_free(&carrier);
  rd_ref_carrier_free(&carrier); /* harmless: set to NULL */
  CHECK(carrier == NULL);
  return finish("test_carry");
}
