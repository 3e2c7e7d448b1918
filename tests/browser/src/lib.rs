//! Helpers for driving headless Chromium against pages served from 127.0.0.1.
