import { describe, expect, it } from 'vitest';
import { catalogInstanceId, catalogName, eraOf, projectName, releaseInstanceId } from './catalog-name.js';

const MANIFEST = '4bd3b2c4a1f3c0e5a6b7c8d9e0f1a2b3c4d5e6f7';
const FRESH = '2ac89889f4cc330eabd50f295dcef02828522c69';
const ID = 'pallets__flask-flask.app.Flask.run';

describe('catalog names of eras', () => {
  it("keys the manifest's commit by the manifest name, and another commit by NAME@COMMIT12", () => {
    const manifest = { name: 'flask', baseCommit: MANIFEST };
    const moved = { name: 'flask', baseCommit: FRESH, manifestCommit: MANIFEST };
    expect([catalogName(manifest), eraOf(manifest)]).toEqual(['flask', null]);
    expect([catalogName(moved), eraOf(moved)]).toEqual(['flask@2ac89889f4cc', '2ac89889f4cc']);
    // Moved back to the manifest's commit (or --at naming it): the manifest's build again.
    expect(catalogName({ ...moved, baseCommit: MANIFEST })).toBe('flask');
    // A folder's current state (no commit in the manifest): any commit --at names is another era.
    expect(catalogName({ name: 'demo', baseCommit: FRESH, manifestCommit: null })).toBe('demo@2ac89889f4cc');
    expect(catalogName({ name: 'demo', baseCommit: null })).toBe('demo');
  });

  it('gives an era its instance ids in the catalog, and reads names and ids back as a release names them', () => {
    const moved = { baseCommit: FRESH, manifestCommit: MANIFEST };
    expect(catalogInstanceId(ID, moved)).toBe(`${ID}@2ac89889f4cc`);
    expect(catalogInstanceId(ID, { baseCommit: MANIFEST })).toBe(ID);
    expect(releaseInstanceId(`${ID}@2ac89889f4cc`)).toBe(ID);
    expect(releaseInstanceId(ID)).toBe(ID);
    // A twin's line suffix stays: only a trailing @ and twelve hex digits is an era.
    expect(releaseInstanceId(`${ID}-L42@2ac89889f4cc`)).toBe(`${ID}-L42`);
    expect(releaseInstanceId('demo-m.f@notanera')).toBe('demo-m.f@notanera');
    expect(projectName('flask@2ac89889f4cc')).toBe('flask');
    expect(projectName('plotly.py')).toBe('plotly.py');
  });
});
