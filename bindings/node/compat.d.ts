// @x/response-diff/compat: fast-playwright-mcp's exact surface
// (src/utils/response-diff-detector.ts, src/utils/diff-formatter.ts,
// src/types/diff.ts). Switch with one import:
//   import { ResponseDiffDetector } from '@x/response-diff/compat'
// Differences in behaviour are listed in this package's README.

import type { CompatDiffOptions, CompatDiffResult } from './index'

export { CompatDiffFormatter as DiffFormatter } from './index'

/**
 * Drop-in for fast-playwright-mcp's `ResponseDiffDetector`: same methods and
 * result shape, keyed by tool name, backed by the core's store (10 MiB cap),
 * line diff and formatter.
 */
export declare class ResponseDiffDetector {
  constructor()
  /**
   * Compares `current` with the previous response of `toolName` and stores
   * `current` for the next call. The first call for a tool has no difference.
   */
  detectDiff(current: string, toolName: string, options: CompatDiffOptions): CompatDiffResult
  /** Stores `content` as the previous response of `toolName`. */
  storeResponse(content: string, toolName: string): void
}

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
