//! Accessibility trees: the aria snapshot model, parser, printer and tree diff (DESIGN §3.4).
