import { parsePythonText, type loadPythonParser } from '@repocod/python';
import type { CorpusFunction } from '../function-corpus.js';
import { corpusFunctions } from '../function-corpus.js';
import type { PromptSite } from '../task-prompt.js';

/**
 * Test support: one module, `pkg/box.py`, whose `Box.area` is the task (its body, lines 11-14, removed in the pre
 * state), with a function inside that body, a function enclosing nothing, a copy of the body elsewhere, and a
 * caller of `area`.
 */
export const BOX = `import functools


class Box:
    @functools.cache
    def area(self, scale):
        """The area of the box.

        Scaled by scale.
        """

        def scaled(value):
            return value * scale
        return scaled(self.width) * self.height

    def perimeter(self):
        """The perimeter of the box."""
        return 2 * (self.width + self.height)


def copied_area(self, scale):
    def scaled(value):
        return value * scale
    return scaled(self.width) * self.height


def top():
    """Top."""
    return Box().area(1)
`;

export const BOX_BODY = { start: 11, end: 14 } as const;

/** The pre state of the box: Box.area's body removed. */
export const BOX_SITE: PromptSite = {
  file: 'pkg/box.py',
  qualname: 'Box.area',
  preText: BOX.split(/(?<=\n)/)
    .filter((_, index) => index + 1 < BOX_BODY.start || index + 1 > BOX_BODY.end)
    .join(''),
  definitionStart: 5,
  bodyLine: BOX_BODY.start,
};

/** The functions of the box and of a second module, as a repository's corpus. */
export function boxRepository(parser: Awaited<ReturnType<typeof loadPythonParser>>): CorpusFunction[] {
  const modules: Record<string, string> = {
    'pkg/box.py': BOX,
    'pkg/shapes.py': 'def circle_area(radius):\n    """The area of a circle."""\n    return 3.14 * radius * radius\n',
  };
  return Object.entries(modules).flatMap(([file, text]) => {
    const parsed = parsePythonText(parser, text, file);
    parsed.tree.delete();
    return corpusFunctions(parsed.functions, parsed.lines);
  });
}
