import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderedDom, screenshot } from './headless-chromium.js';
import { colourPerRow, decodePng } from './png-pixels.js';

const folder = mkdtempSync(join(tmpdir(), 'repocod-chromium-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('headless Chromium', () => {
  const page = join(folder, 'page.html');
  writeFileSync(
    page,
    '<!DOCTYPE html><html><body style="margin:0;background:#fff"><div style="width:100px;height:20px;' +
      'background:#2da44e"></div><p id="x">shown</p><script>document.getElementById("x").textContent = "laid ' +
      'out"</script>' +
      '</body></html>',
  );
  it('gives the DOM after the page ran', () => {
    expect(renderedDom(page)).toContain('<p id="x">laid out</p>');
  });
  it('takes a screenshot whose pixels are those of the page', () => {
    const image = decodePng(screenshot(page, 300, 200));
    expect([image.width, image.height]).toEqual([300, 200]);
    const green = colourPerRow(image, '#2da44e');
    expect(green.slice(0, 20)).toEqual(Array(20).fill(100));
    expect(green[20]).toBe(0);
  });
});
