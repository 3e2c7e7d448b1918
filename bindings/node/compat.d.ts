// @x/response-diff/compat: fast-playwright-mcp's exact surface
// (src/utils/response-diff-detector.ts, src/utils/diff-formatter.ts,
// src/types/diff.ts). Switch with one import:
//   import { ResponseDiffDetector } from '@x/response-diff/compat'
// Differences in behaviour are listed in this package's README.

export {
  CompatResponseDiffDetector as ResponseDiffDetector,
  CompatDiffFormatter as DiffFormatter,
} from './index'

export type {
  CompatDiffOptions as DiffOptions,
  CompatDiffSegment as DiffSegment,
  CompatDiffMetadata as DiffMetadata,
  CompatDiffResult as DiffResult,
} from './index'

/** fast-playwright-mcp's storage record type (kept for type compatibility). */
export interface ResponseStorage {
  toolName: string
  timestamp: number
  content: string
  hash: string
}
