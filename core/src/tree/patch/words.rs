//! How long a way of saying something reads, for the writer's choices
//! between two (a `~` line or a flip, printing or restoring, a run or a
//! list).

/// About how many tokens a model reads in `s`, to weigh two ways of
/// saying one thing (the core has no tokenizer; this is the shape of
/// o200k's on snapshot lines): a run of letters is one, a run of digits one
/// per three, whitespace none, any other character one.
pub(super) fn words(s: &str) -> usize {
    let mut n = 0;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphabetic() {
            while chars.next_if(|c| c.is_alphabetic()).is_some() {}
            n += 1;
        } else if c.is_ascii_digit() {
            let mut digits: usize = 1;
            while chars.next_if(char::is_ascii_digit).is_some() {
                digits += 1;
            }
            n += digits.div_ceil(3);
        } else if !c.is_whitespace() {
            n += 1;
        }
    }
    n
}
