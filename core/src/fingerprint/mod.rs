//! DOM fingerprints: page-side extractor, model, normalization, compare, baselines (DESIGN §3.5).
