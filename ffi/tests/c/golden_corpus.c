/* The golden corpus through the C ABI (ffi/tests/golden_corpus.rs drives it).
 *
 * usage: golden_corpus DIR COUNT
 * For each case i < COUNT, reads DIR/i.old, DIR/i.new and DIR/i.opts (the
 * diffOptions JSON), stores the old text in a new default detector, detects
 * the new one and writes the result JSON to DIR/i.result.json, then writes
 * the engine's line diff alone (rd_diff_format) to DIR/i.linediff. The Rust
 * harness compares both with tests/fixtures/golden-corpus.json. */
#include "check.h"

static void write_file(const char *dir, const char *name, const char *data) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  size_t n = strlen(data);
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: golden_corpus DIR COUNT\n");
    return 2;
  }
  const char *dir = argv[1];
  int count = atoi(argv[2]);
  for (int i = 0; i < count; i++) {
    char name[64];
    size_t old_len, new_len, opts_len;
    snprintf(name, sizeof name, "%d.old", i);
    char *old = read_file(dir, name, &old_len);
    snprintf(name, sizeof name, "%d.new", i);
    char *new_ = read_file(dir, name, &new_len);
    snprintf(name, sizeof name, "%d.opts", i);
    char *opts = read_file(dir, name, &opts_len);

    rd_detector *d = NULL;
    CHECK_STATUS(rd_detector_new(NULL, 0, &d), RD_OK);
    bool stored = false;
    CHECK_STATUS(rd_detector_store(d, S("k"), old, old_len, &stored), RD_OK);
    CHECK(stored);
    char *out = NULL;
    CHECK_STATUS(rd_detector_detect(d, S("k"), new_, new_len, opts, opts_len, &out), RD_OK);
    snprintf(name, sizeof name, "%d.result.json", i);
    write_file(dir, name, out ? out : "");
    rd_string_free(&out);
    rd_detector_free(&d);

    char *text = NULL;
    CHECK_STATUS(rd_diff_format(old, old_len, new_, new_len, opts, opts_len, &text), RD_OK);
    snprintf(name, sizeof name, "%d.linediff", i);
    write_file(dir, name, text ? text : "");
    rd_string_free(&text);

    free(old);
    free(new_);
    free(opts);
  }
  return finish("golden_corpus");
}
