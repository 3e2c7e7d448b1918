// Uses @x/response-diff/compat the way fast-playwright-mcp's src/response.ts
// uses its own ResponseDiffDetector: one shared static detector, full
// DiffOptions built from the expectation with defaults, the result kept as
// `DiffResult | undefined` and rendered into a "Changes" section.
// Checked with `tsc --noEmit` (test/compat.test.js); never run.
import {
  type DiffOptions,
  type DiffResult,
  type DiffSegment,
  type DiffMetadata,
  type ResponseStorage,
  DiffFormatter,
  ResponseDiffDetector,
} from '@x/response-diff/compat'

type PartialDiffOptions = Partial<DiffOptions> & { enabled: boolean }

export class ToolResponse {
  private static readonly diffDetector: ResponseDiffDetector = new ResponseDiffDetector()
  private diffResult: DiffResult | undefined
  private readonly sections: string[] = []

  constructor(
    readonly toolName: string,
    private readonly diff: PartialDiffOptions | undefined,
  ) {}

  add(section: string): void {
    this.sections.push(section)
  }

  finish(): void {
    if (!this.diff?.enabled) return
    try {
      const options: DiffOptions = {
        enabled: this.diff.enabled,
        threshold: this.diff.threshold ?? 0.1,
        format: this.diff.format ?? 'unified',
        maxDiffLines: this.diff.maxDiffLines ?? 50,
        ignoreWhitespace: this.diff.ignoreWhitespace ?? true,
        context: this.diff.context ?? 3,
      }
      this.diffResult = ToolResponse.diffDetector.detectDiff(this.sections.join('\n\n'), this.toolName, options)
    } catch {
      this.diffResult = undefined
    }
  }

  serialize(): { content: { type: 'text'; text: string }[] } {
    const out: string[] = []
    const r = this.diffResult
    if (r?.hasDifference && r.formattedDiff) {
      const m: DiffMetadata = r.metadata
      out.push(
        '### Changes from previous response',
        `Similarity: ${(r.similarity * 100).toFixed(1)}%`,
        `Changes: ${m.addedLines} additions, ${m.removedLines} deletions (${m.contextLines} context, ${m.totalLines} total)`,
        '',
        '```diff',
        r.formattedDiff,
        '```',
        '',
      )
    }
    out.push(...this.sections)
    return { content: [{ type: 'text', text: out.join('\n') }] }
  }

  static seed(content: string, toolName: string): void {
    const stored: void = ToolResponse.diffDetector.storeResponse(content, toolName)
    return stored
  }
}

// The formatter takes segments as fast-diff produces them.
export function formatAll(segments: DiffSegment[]): [string, string, string, string] {
  const f = new DiffFormatter()
  return [f.formatUnified(segments, 3), f.formatUnified(segments), f.formatSplit(segments), f.formatMinimal(segments)]
}

export const storage: ResponseStorage = { toolName: 'browser_click', timestamp: 0, content: '', hash: '' }

// The surface is exact: these must not type-check.
const detector = new ResponseDiffDetector()
// @ts-expect-error: their DiffOptions has every field required
detector.detectDiff('x', 'browser_click', { enabled: true })
detector.detectDiff('x', 'browser_click', {
  enabled: true,
  threshold: 0.1,
  // @ts-expect-error: not one of their formats
  format: 'side-by-side',
  maxDiffLines: 50,
  ignoreWhitespace: true,
  context: 3,
})
// @ts-expect-error: not a segment type
formatAll([{ type: 'insert', value: 'x' }])
// @ts-expect-error: their DiffResult has no `mode`
void detector.detectDiff('x', 't', { enabled: true, threshold: 0.1, format: 'minimal', maxDiffLines: 5, ignoreWhitespace: true, context: 0 }).mode
