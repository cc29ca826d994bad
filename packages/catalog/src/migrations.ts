/**
 * One step of the catalog's schema. Once a migration has shipped its SQL is frozen: catalogs in the
 * wild have already run it, so a change of schema is always a new migration appended to the list.
 */
export interface Migration {
  /** 1, 2, 3 … in list order; recorded in `schema_migrations` once applied. */
  readonly version: number;
  /** What the migration is for, shown in errors and recorded beside the version. */
  readonly name: string;
  readonly sql: string;
}

/**
 * The catalog's schema, oldest first. Later stages add their tables by appending migrations here.
 *
 * The SQL is written out literally rather than generated from the row writers so that a refactor of
 * TypeScript code can never silently change what an old migration did.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'repositories, files and functions',
    sql:
      `
      CREATE TABLE repositories (
        name TEXT PRIMARY KEY,
        root TEXT NOT NULL,
        updated_at TIMESTAMP NOT NULL
      );

      -- One row per scanned file: a rerun skips a file whose content_hash and
      -- extractor_fingerprint are unchanged.
      CREATE TABLE files (
        repository TEXT NOT NULL,
        file TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        extractor_fingerprint TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'syntax-error', 'not-utf8', 'binary', 'unreadable', ` +
      `'analysis-error')),
        issue_lines INTEGER[],
        message TEXT,
        function_count INTEGER NOT NULL,
        extracted_at TIMESTAMP NOT NULL,
        PRIMARY KEY (repository, file)
      );

      -- One row per function or method. A qualname can repeat within a file (a function defined
      -- twice under if/else), so the signature's first line is part of the key.
      CREATE TABLE functions (
        function_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        file TEXT NOT NULL,
        qualname TEXT NOT NULL,
        name TEXT NOT NULL,
        class_name TEXT,
        nested BOOLEAN NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('function', 'method', 'staticmethod', 'classmethod', 'property', 'async')),
        is_async BOOLEAN NOT NULL,
        decorators TEXT[] NOT NULL,
        is_test_code BOOLEAN NOT NULL,
        def_start INTEGER NOT NULL,
        def_end INTEGER NOT NULL,
        sig_start INTEGER NOT NULL,
        sig_end INTEGER NOT NULL,
        doc_start INTEGER,
        doc_end INTEGER,
        body_start INTEGER NOT NULL,
        body_end INTEGER NOT NULL,
        docstring_lines INTEGER NOT NULL,
        parameter_count INTEGER NOT NULL,
        prompt TEXT NOT NULL,
        solution TEXT NOT NULL,
        full_source TEXT NOT NULL,
        cc INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        solution_tokens INTEGER NOT NULL,
        prompt_lines INTEGER NOT NULL,
        solution_lines INTEGER NOT NULL,
        halstead_volume DOUBLE NOT NULL,
        halstead_effort DOUBLE NOT NULL,
        logical_lines INTEGER NOT NULL,
        maintainability DOUBLE NOT NULL,
        is_candidate BOOLEAN NOT NULL,
        content_hash TEXT NOT NULL,
        PRIMARY KEY (repository, file, qualname, sig_start)
      );
    `,
  },
  {
    version: 2,
    name: 'runs and test results',
    sql: `
      -- One row per finished attempt of a runner job, written as the attempt finishes so that a killed
      -- process loses only the jobs in flight. job_hash covers repository, recipe, patches and tests:
      -- the same job again is answered from here.
      CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        job_hash TEXT NOT NULL,
        repository TEXT NOT NULL,
        base_commit TEXT,
        environment_key TEXT,
        recipe_hash TEXT,
        patches_hash TEXT,
        tests_hash TEXT,
        attempt INTEGER, -- 1 … repeat
        status TEXT CHECK (status IN ('ok', 'collection-error', 'timeout', 'crashed', 'infra-error', 'patch-error')),
        exit_code INTEGER,
        duration_seconds DOUBLE,
        network TEXT,
        worker INTEGER,
        log TEXT,
        started_at TIMESTAMP,
        finished_at TIMESTAMP
      );
      CREATE INDEX runs_job_hash ON runs (job_hash);

      -- One row per requested test of a run; a whole-suite run has thousands.
      CREATE TABLE test_results (
        run_id TEXT,
        node_id TEXT,
        outcome TEXT CHECK (outcome IN ('passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed', 'missing')),
        duration_seconds DOUBLE,
        message TEXT,
        PRIMARY KEY (run_id, node_id)
      );
    `,
  },
  {
    version: 3,
    name: 'mining: baseline, coverage map and relevant tests',
    sql: `
      -- mining_key identifies what mining results depend on: the base commit, the environment and
      -- the number of baseline runs. A new key starts afresh; the same key resumes.
      CREATE TABLE mining_baseline (
        repository TEXT NOT NULL,
        mining_key TEXT NOT NULL,
        node_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passing', 'flaky', 'not-passing')),
        outcomes TEXT[] NOT NULL, -- one per baseline run
        reason TEXT,
        seconds DOUBLE NOT NULL,
        PRIMARY KEY (repository, mining_key, node_id)
      );

      CREATE TABLE mining_coverage (
        repository TEXT NOT NULL,
        mining_key TEXT NOT NULL,
        function_id TEXT NOT NULL,
        tests TEXT[] NOT NULL,
        subprocess_tests TEXT[] NOT NULL,
        import_time BOOLEAN NOT NULL,
        PRIMARY KEY (repository, mining_key, function_id)
      );

      -- One row per function and mode, written as soon as the function is mined: a killed run
      -- resumes with the functions that have no row (or an error row).
      CREATE TABLE relevant_tests (
        repository TEXT NOT NULL,
        mining_key TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('fast', 'exact')),
        function_id TEXT NOT NULL,
        qualname TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('tests', 'no-tests', 'error')),
        tests TEXT[] NOT NULL, -- FAIL_TO_PASS
        reason TEXT,
        method TEXT NOT NULL CHECK (method IN ('in-process', 'fresh-process', 'whole-suite', 'coverage')),
        candidates INTEGER NOT NULL,
        seconds DOUBLE NOT NULL,
        mined_at TIMESTAMP NOT NULL,
        PRIMARY KEY (repository, mining_key, mode, function_id)
      );
    `,
  },
  {
    version: 4,
    name: 'tasks and selections',
    sql: `
      -- One row per task: a mined function with relevant tests, its level, statements and patches.
      CREATE TABLE tasks (
        instance_id TEXT PRIMARY KEY,
        repository TEXT NOT NULL,
        function_id TEXT NOT NULL,
        file TEXT NOT NULL,
        qualname TEXT NOT NULL,
        repo TEXT NOT NULL,
        base_commit TEXT NOT NULL,
        base_commit_timestamp TEXT NOT NULL,
        prompt TEXT NOT NULL,
        solution TEXT NOT NULL,
        prompt_lines INTEGER NOT NULL,
        solution_lines INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        solution_tokens INTEGER NOT NULL,
        cc INTEGER NOT NULL,
        level TEXT NOT NULL CHECK (level IN ('self-contained', 'file-level', 'repo-level')),
        dependencies TEXT NOT NULL, -- JSON: why the task has its level
        fail_to_pass TEXT[] NOT NULL,
        problem_code TEXT NOT NULL,
        problem_test TEXT NOT NULL,
        pre_code TEXT NOT NULL,
        gold_code TEXT NOT NULL,
        pre_test TEXT NOT NULL,
        gold_test TEXT NOT NULL,
        checks TEXT NOT NULL, -- JSON: round trip, git apply --check, collection of the pre state
        checks_passed BOOLEAN NOT NULL,
        built_at TIMESTAMP NOT NULL
      );

      -- A selection is named by the hash of its spec, which is stored with it (and with the release).
      CREATE TABLE selections (
        selection_id TEXT PRIMARY KEY,
        spec TEXT NOT NULL,
        created_at TIMESTAMP NOT NULL
      );

      CREATE TABLE selection_picks (
        selection_id TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        level TEXT NOT NULL,
        score DOUBLE NOT NULL,
        rank INTEGER NOT NULL,
        PRIMARY KEY (selection_id, instance_id)
      );
    `,
  },
  {
    version: 5,
    name: 'validations',
    sql: `
      -- One row per task validation, written as each task's checks finish: a killed run resumes with
      -- the tasks that have no row (or an infra-error row) under the same validation key. task_hash
      -- names the task's content (patches, tests, commit), so a rebuilt task is validated again;
      -- validation_key adds the environment, the number of runs and the settings.
      CREATE TABLE validations (
        instance_id TEXT NOT NULL,
        task_hash TEXT NOT NULL,
        validation_key TEXT NOT NULL,
        repository TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'infra-error')),
        checks TEXT NOT NULL, -- JSON: per check its status, the tests concerned, detail, log and run ids
        fail_to_pass TEXT[] NOT NULL, -- as validated: flaky (and, when narrowing, non-failing) tests removed
        flaky_tests TEXT[] NOT NULL,
        dropped_tests TEXT[] NOT NULL, -- tests that pass without the body, removed when narrowing
        tool_version TEXT NOT NULL,
        python_version TEXT NOT NULL,
        packages_hash TEXT NOT NULL,
        environment_key TEXT NOT NULL,
        run_ids TEXT[] NOT NULL,
        repeat INTEGER NOT NULL,
        seconds DOUBLE NOT NULL,
        validated_at TIMESTAMP NOT NULL,
        PRIMARY KEY (instance_id, validation_key)
      );
    `,
  },
  {
    version: 6,
    name: 'validations: tests passing without the body, how the gold check was answered',
    sql: `
      -- Validation keeps FAIL_TO_PASS whole by default (REPOCOD's rule) and records the tests seen
      -- passing without the body; a run that stops at the first failure sees only some of them, so
      -- without_body_complete says whether every test's outcome is known (NULL: not recorded).
      -- The gold check is answered by k runs with the gold patches, or by mining's k baseline runs of
      -- the same environment (the gold state is the base commit): gold_baseline_key is that mining key.
      -- DuckDB cannot add several columns to a keyed table with rows in one transaction (nor a column
      -- with a constraint): the table is made again with the new columns, and its rows copied.
      CREATE TABLE validations_6 (
        instance_id TEXT NOT NULL,
        task_hash TEXT NOT NULL,
        validation_key TEXT NOT NULL,
        repository TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'infra-error')),
        checks TEXT NOT NULL,
        fail_to_pass TEXT[] NOT NULL,
        flaky_tests TEXT[] NOT NULL,
        dropped_tests TEXT[] NOT NULL,
        tool_version TEXT NOT NULL,
        python_version TEXT NOT NULL,
        packages_hash TEXT NOT NULL,
        environment_key TEXT NOT NULL,
        run_ids TEXT[] NOT NULL,
        repeat INTEGER NOT NULL,
        seconds DOUBLE NOT NULL,
        validated_at TIMESTAMP NOT NULL,
        passing_without_body TEXT[] NOT NULL DEFAULT [],
        without_body_complete BOOLEAN,
        gold_from TEXT NOT NULL DEFAULT 'runs' CHECK (gold_from IN ('runs', 'baseline')),
        gold_baseline_key TEXT,
        PRIMARY KEY (instance_id, validation_key)
      );
      -- Validations stored before ran the gold patches k times; what passed without the body was not kept.
      INSERT INTO validations_6 SELECT *, [], NULL, 'runs', NULL FROM validations;
      DROP TABLE validations;
      ALTER TABLE validations_6 RENAME TO validations;
      `,
  },
  {
    version: 7,
    name: 'stage times',
    sql: `
      -- The wall time of each repository's stages as last finished (prepare, extract, mine, tasks,
      -- validate), for the committed record of a rebuild. One row per repository and stage: a stage
      -- that finishes again replaces its row.
      CREATE TABLE stage_times (
        repository TEXT NOT NULL,
        stage TEXT NOT NULL,
        seconds DOUBLE NOT NULL,
        finished_at TIMESTAMP NOT NULL,
        PRIMARY KEY (repository, stage)
      );
    `,
  },
  {
    version: 8,
    name: 'evaluations',
    sql: `
      -- A model's predictions evaluated on a release (repocod evaluate). One row per run: the release
      -- and the tasks in scope with what the report groups them by (JSON text), so a report is made
      -- again from the catalog alone.
      CREATE TABLE evaluation_runs (
        run_id TEXT PRIMARY KEY,
        release TEXT NOT NULL,
        version TEXT NOT NULL,
        tasks TEXT NOT NULL,
        started_at TIMESTAMP NOT NULL
      );
      -- One row per run, model and task: the outcome of its latest evaluation. evaluation_key names what
      -- was run (the prediction, the task's patches and tests, the environment, the limit): a rerun
      -- with the same key keeps the row and runs nothing.
      CREATE TABLE evaluations (
        run_id TEXT NOT NULL,
        model TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        evaluation_key TEXT NOT NULL,
        prediction_source TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT NOT NULL,
        failing_tests TEXT NOT NULL,
        job_hash TEXT,
        run_ids TEXT[] NOT NULL,
        seconds DOUBLE NOT NULL,
        evaluated_at TIMESTAMP NOT NULL,
        PRIMARY KEY (run_id, model, instance_id)
      );
    `,
  },
  {
    version: 9,
    name: 'context-level modes',
    sql: `
      -- Every task's level under each level mode (core's LEVEL_MODES), with the calls that decided it
      -- (JSON), written with the task: a selection under another mode re-labels from here, without
      -- mining or classifying again.
      CREATE TABLE task_levels (
        instance_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('repocod-v1', 'repocod-v4', 'deps')),
        level TEXT NOT NULL CHECK (level IN ('self-contained', 'file-level', 'repo-level')),
        calls TEXT NOT NULL,
        PRIMARY KEY (instance_id, mode)
      );
      -- The mode tasks.level is under: the tasks stage's, then the last selection's (select re-labels).
      -- Tasks built before the modes were labelled by the dependency classifier. DuckDB cannot add a
      -- column with a constraint; the writers only ever write a mode of LEVEL_MODES.
      ALTER TABLE tasks ADD COLUMN level_mode TEXT DEFAULT 'deps';
    `,
  },
  {
    version: 10,
    name: 'reference task lists',
    sql: `
      -- A published task list taken as a reference (repocod reference add): where it came from, the
      -- form of its rows, and a hash of the records as read, so the same source added again is known.
      CREATE TABLE reference_lists (
        name TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        revision TEXT,
        config TEXT,
        form TEXT CHECK (form IN ('repocod', 'names', 'seed')),
        content_hash TEXT NOT NULL,
        added_at TIMESTAMP NOT NULL
      );
      -- Every record of a reference as given (fields: its JSON, under the keys a keyed form put it),
      -- a bad one with its problem (JSON {field, message}), so nothing of the source is lost; the
      -- reference package reads the good ones into rows again.
      CREATE TABLE reference_rows (
        name TEXT NOT NULL,
        row_number INTEGER NOT NULL,
        location TEXT NOT NULL,
        repository TEXT,
        repo_id TEXT,
        fields TEXT NOT NULL,
        problem TEXT,
        PRIMARY KEY (name, row_number)
      );
    `,
  },
  {
    version: 11,
    name: 'instance ids relative to the package root',
    sql: `
      -- An instance id names the module from the manifest's package_root (tasks' instanceId), as the
      -- package imports it: plotly.py's tasks were named from the repository root, their package root
      -- packages/python/plotly included (plotly__plotly.py-packages.python.plotly.plotly.graph_objs…).
      -- They are renamed wherever an id is kept, and each rename is recorded, for releases to cite.
      -- plotly.py is the only repository of the manifests with a package root below the top; a catalog
      -- of another such repository gets its new ids when its tasks stage runs again.
      CREATE TABLE instance_id_renames (
        old_id TEXT PRIMARY KEY,
        new_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        reason TEXT NOT NULL,
        renamed_at TIMESTAMP NOT NULL
      );
      INSERT INTO instance_id_renames
        SELECT instance_id, 'plotly__plotly.py-' || substr(instance_id, 42), 'plotly.py',
          'the module path is taken from the package root, packages/python/plotly', now()
        FROM (
          SELECT instance_id FROM tasks UNION SELECT instance_id FROM validations
          UNION SELECT instance_id FROM evaluations UNION SELECT instance_id FROM task_levels
          UNION SELECT instance_id FROM selection_picks
        )
        WHERE starts_with(instance_id, 'plotly__plotly.py-packages.python.plotly.');
      UPDATE tasks SET instance_id = r.new_id FROM instance_id_renames r WHERE tasks.instance_id = r.old_id;
      UPDATE task_levels SET instance_id = r.new_id FROM instance_id_renames r WHERE task_levels.instance_id = r.old_id;
      UPDATE validations SET instance_id = r.new_id FROM instance_id_renames r WHERE validations.instance_id = r.old_id;
      UPDATE evaluations SET instance_id = r.new_id FROM instance_id_renames r WHERE evaluations.instance_id = r.old_id;
      UPDATE selection_picks SET instance_id = r.new_id FROM instance_id_renames r
        WHERE selection_picks.instance_id = r.old_id;
    `,
  },
  {
    version: 12,
    name: 'when each function body last changed',
    sql: `
      -- A function's body dated by git blame at a base commit (the newest code line's commit and author
      -- time; runner's blameFunctionBodies): what --changed-since keeps. Keyed by the base commit and the
      -- blame options, so another era of the repository or another way of dating never reuses a row.
      -- body_commit and body_changed_at are null for a body without a code line.
      CREATE TABLE body_history (
        repository TEXT NOT NULL,
        base_commit TEXT NOT NULL,
        function_id TEXT NOT NULL,
        blame_args TEXT NOT NULL,
        body_commit TEXT,
        body_changed_at TIMESTAMP,
        dated_at TIMESTAMP NOT NULL,
        PRIMARY KEY (repository, base_commit, function_id, blame_args)
      );
    `,
  },
  {
    version: 13,
    name: 'what the jobs of each phase cost',
    sql: `
      -- The runner jobs the flow ran (pipeline's CostLedger), summed per repository (its catalog name, the
      -- era), stage and phase as each job finishes: a build killed and resumed keeps what it had spent, and
      -- since a job the catalog answers is never run again, the rows of a fresh catalog are its cold cost.
      -- Not part of a checkpoint: a rebuild from one runs nothing.
      CREATE TABLE job_costs (
        repository TEXT NOT NULL,
        stage TEXT NOT NULL,
        phase TEXT NOT NULL,
        jobs BIGINT NOT NULL,
        processes BIGINT NOT NULL,
        test_executions BIGINT NOT NULL,
        busy_seconds DOUBLE NOT NULL,
        updated_at TIMESTAMP NOT NULL,
        PRIMARY KEY (repository, stage, phase)
      );
    `,
  },
];

/** The schema version a catalog has once every known migration has run. */
export function latestSchemaVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.at(-1)?.version ?? 0;
}

/**
 * Versions must run 1, 2, 3 … with no gap or repeat: the runner records versions, not names, and a gap
 * would make two builds disagree on what a version number means.
 */
export function checkMigrationOrder(migrations: readonly Migration[]): string | null {
  for (const [index, migration] of migrations.entries()) {
    if (migration.version !== index + 1) {
      return `migration "${migration.name}" has version ${migration.version}, expected ${index + 1}`;
    }
  }
  return null;
}
