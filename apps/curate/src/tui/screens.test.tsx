import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '@repocod/pipeline';
import { CurateSession } from '../curate-session.js';
import { App } from './app.js';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { frameLines, KEY, press, tick } from '../testing/ink-test-support.js';
import type { Screen, ScreenController } from './screen.js';
import { SCREENS } from './screens.js';

let catalog: Catalog;
let session: CurateSession;

beforeAll(async () => {
  catalog = await openDemoCatalog();
  // Nothing here runs the flow: the folders only need to exist somewhere.
  const scratch = mkdtempSync(join(tmpdir(), 'repocod-screens-'));
  session = new CurateSession(catalog, {
    ...{ projectRoot: scratch, stateRoot: scratch, catalogPath: catalog.path, sources: [], workers: 1, repeat: 1 },
    ...{ narrow: false, version: null, out: join(scratch, 'release'), keep: [], push: null, evaluations: scratch },
  });
});

afterAll(async () => {
  await catalog.close();
});

/** A screen the registry does not have: it counts its loads and takes z. */
function useProbeScreen(): ScreenController {
  const [loads, setLoads] = useState(0);
  const [zapped, setZapped] = useState(false);
  return {
    load: () => setLoads((count) => count + 1),
    onKey: (input) => {
      if (input !== 'z') return false;
      setZapped(true);
      return true;
    },
    render: () => <Text>{`probe: loaded ${loads} time(s)${zapped ? ', zapped' : ''}`}</Text>,
  };
}

const PROBE: Screen = { name: 'probe', tab: 'probe', keys: [{ key: 'z', action: 'zap' }], useScreen: useProbeScreen };

async function renderApp(
  screens?: readonly Screen[],
): Promise<{ app: ReturnType<typeof render>; screen: () => string }> {
  const status = await session.status();
  const app = render(
    <App session={session} initialStatus={status} requested={[]} size={{ width: 100, height: 30 }} screens={screens} />,
  );
  await tick();
  return { app, screen: () => frameLines(app.lastFrame()).join('\n') };
}

describe('the screen registry', () => {
  it('gives the App six tabs today, and their count on the help bar', async () => {
    const { app, screen } = await renderApp();
    try {
      expect(screen()).toMatch(/^repocod {2}1 sources {2}2 stages .* 6 evaluate$/m);
      expect(screen()).toMatch(/ · 1-6\/tab screens · q quit$/m);
    } finally {
      app.unmount();
    }
  });

  it('makes a screen of one entry: a tab, reachable by its key, drawn, loaded and given its keys', async () => {
    const { app, screen } = await renderApp([...SCREENS, PROBE]);
    try {
      expect(screen()).toMatch(/ 6 evaluate {2}7 probe$/m);
      expect(screen()).toMatch(/ · 1-7\/tab screens · q quit$/m);
      await press(app.stdin, '7');
      expect(screen()).toMatch(/^probe: loaded 1 time\(s\)$/m);
      expect(screen()).toMatch(/^z zap · 1-7\/tab screens · q quit$/m);
      await press(app.stdin, 'z');
      expect(screen()).toMatch(/^probe: loaded 1 time\(s\), zapped$/m);
      // Tab goes round to the first tab; what the probe holds stays while another screen shows.
      await press(app.stdin, KEY.tab);
      expect(screen()).toMatch(/^repositories \(/m);
      await press(app.stdin, '7');
      expect(screen()).toMatch(/^probe: loaded 2 time\(s\), zapped$/m);
    } finally {
      app.unmount();
    }
  });
});
