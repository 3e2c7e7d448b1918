"""The benchmark inputs of core/benches/inputs/mod.rs, ported line for line
so the golden corpus can regenerate them instead of committing megabytes.
The corpus holds each input's SHA-256, so a port that drifts from the Rust
generator fails the corpus test rather than testing other inputs."""

from __future__ import annotations

SIZES = [("2KB", 2_000), ("20KB", 20_000), ("200KB", 200_000), ("2.6MB", 2_600_000)]

CHANGES = ["one_line", "scattered_1pct", "block_inserted", "refs_renumbered", "different_page"]


def page(size: int, flavor: str) -> str:
    parts = ['- generic [ref=e1]:\n  - banner [ref=e2]:\n    - navigation "Main" [ref=e3]:\n']
    length = len(parts[0])
    r = 4
    section = 0

    def push(s: str) -> None:
        nonlocal length
        parts.append(s)
        length += len(s)

    while length < size:
        push(f'  - region "{flavor} section {section}" [ref=e{r}]:\n')
        r += 1
        push(f'    - heading "{flavor} heading {section}" [level=2] [ref=e{r}]\n')
        r += 1
        push(f'    - list "{flavor} items {section}" [ref=e{r}]:\n')
        r += 1
        for i in range(8):
            if length >= size:
                break
            push(f"      - listitem [ref=e{r}]:\n")
            r += 1
            push(
                f'        - link "{flavor} product {section}-{i}" [ref=e{r}] [cursor=pointer]:\n'
                f"          - /url: /p/{section}/{i}\n"
            )
            r += 1
            push(f"        - paragraph [ref=e{r}]: ${10 + (section * 7 + i) % 90}.{(i * 13) % 100:02}\n")
            r += 1
        section += 1
    return "".join(parts)


def _lines(text: str) -> list[str]:
    # Rust's str::lines: split on \n, no empty last line after a final \n.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _replace_line(text: str, pick) -> str:  # type: ignore[no-untyped-def]
    lines = _lines(text)
    n = len(lines)
    return "".join(line + (" (changed)" if pick(i, n) else "") + "\n" for i, line in enumerate(lines))


def _renumber(text: str) -> str:
    out = []
    rest = text
    while (i := rest.find("[ref=e")) >= 0:
        out.append(rest[: i + 6])
        rest = rest[i + 6 :]
        end = max(rest.find("]"), 0)
        try:
            n = int(rest[:end])
        except ValueError:
            n = 0
        out.append(str(n + 1000))
        rest = rest[end:]
    out.append(rest)
    return "".join(out)


def pair(size: int, change: str) -> tuple[str, str]:
    old = page(size, "Shop")
    if change == "one_line":
        new = _replace_line(old, lambda i, n: i == n // 2)
    elif change == "scattered_1pct":
        new = _replace_line(old, lambda i, n: i % 100 == 50)
    elif change == "block_inserted":
        lines = _lines(old)
        mid = len(lines) // 2
        out = "\n".join(lines[:mid]) + "\n"
        out += '  - dialog "Added to cart" [active] [ref=e99990]:\n'
        for k in range(18):
            out += f"    - paragraph [ref=e{99991 + k}]: modal line {k}\n"
        out += "\n".join(lines[mid:]) + "\n"
        new = out
    elif change == "refs_renumbered":
        new = _renumber(old)
    elif change == "different_page":
        new = page(size, "Checkout")
    else:
        raise ValueError(f"unknown change {change}")
    return old, new
