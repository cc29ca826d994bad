"""Test support: a stand-in embedding model for `repocod prompts --setting dense --embed-command`.

Not a model: each text's identifiers and their parts (split at underscores and case changes, in lower case)
are hashed into 256 buckets and counted, so that texts sharing words are near by cosine. It reads one JSON
line {"text": ...} per text on standard input and prints one JSON array of 256 numbers per text, in order:
the protocol of the embedding command (packages/pipeline/src/prompting/embedding-command.ts).
"""

import hashlib
import json
import re
import sys

DIMENSIONS = 256
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def terms(text):
    for word in WORD.findall(text):
        yield word.lower()
        parts = PART.findall(word)
        if len(parts) > 1:
            for part in parts:
                yield part.lower()


def embed(text):
    vector = [0] * DIMENSIONS
    for term in terms(text):
        bucket = int.from_bytes(hashlib.md5(term.encode("utf-8")).digest()[:4], "little") % DIMENSIONS
        vector[bucket] += 1
    return vector


for line in sys.stdin:
    if line.strip():
        print(json.dumps(embed(json.loads(line)["text"])))
