import { parentPort, workerData } from 'node:worker_threads';
import { loadPythonParser } from '@repocod/python';
import type { AnalyseOptions } from './analyse-python-file.js';
import { analyseOne } from './analyse-request.js';
import type { AnalyseRequest, AnalyseResponse } from './analyse-request.js';

/** A worker thread of the parallel analyser: one parser, requests in, analyses out. */
const port = parentPort;
if (port === null) throw new Error('analyse-worker.js must run as a worker thread');
const options = workerData as AnalyseOptions;
const parser = await loadPythonParser();
port.on('message', (request: AnalyseRequest) => {
  let response: AnalyseResponse;
  try {
    response = { id: request.id, ok: true, result: analyseOne(parser, request, options) };
  } catch (error) {
    response = {
      id: request.id,
      ok: false,
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  port.postMessage(response);
});
port.postMessage({ ready: true });
