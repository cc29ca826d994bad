"""Oracle for the differential tests: Python's own `ast` view of every function of the given files.

Reads repository-relative paths (one per line) on stdin, resolves them against argv[1], prints one JSON
object per function: file, qualname, def line, last line, docstring span, async flag, decorator texts.
Files Python cannot read or parse print one {"file", "error"} object instead.
"""
import ast
import json
import sys


def docstring_span(node):
    body = node.body
    if body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return [value.lineno, value.end_lineno]
    return None


def source_segment(lines, node):
    """`ast.get_source_segment` over lines split once per file (the stdlib's splits the whole file per call)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    start, end = node.col_offset, node.end_col_offset
    if first == last:
        return lines[first].encode("utf-8")[start:end].decode("utf-8")
    head = lines[first].encode("utf-8")[start:].decode("utf-8")
    tail = lines[last].encode("utf-8")[:end].decode("utf-8")
    return "".join([head, *lines[first + 1:last], tail])


def walk(node, prefix, out, path, lines):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qualname = prefix + child.name
            out.append({
                "file": path,
                "qualname": qualname,
                "def_line": child.lineno,
                "end_line": child.end_lineno,
                "docstring": docstring_span(child),
                "is_async": isinstance(child, ast.AsyncFunctionDef),
                "decorators": [source_segment(lines, d) for d in child.decorator_list],
            })
            walk(child, qualname + ".<locals>.", out, path, lines)
        elif isinstance(child, ast.ClassDef):
            walk(child, prefix + child.name + ".", out, path, lines)
        elif isinstance(child, ast.Lambda):
            continue
        else:
            walk(child, prefix, out, path, lines)


def main():
    root = sys.argv[1]
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            with open(f"{root}/{path}", "rb") as handle:
                source = handle.read()
            text = source.decode("utf-8")
            tree = ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError) as error:
            print(json.dumps({"file": path, "error": type(error).__name__}))
            continue
        out = []
        walk(tree, "", out, path, ast._splitlines_no_ff(text))
        for record in out:
            print(json.dumps(record))


if __name__ == "__main__":
    main()
