import { closeSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';

/*
 * The accidents a release file meets, done to a real file: a copy or download cut short, and bytes damaged in place.
 * The tests of the commands that read a release break one this way and look at what they say.
 */

/** Cuts the file to half its size, as an interrupted copy or download leaves it. */
export function truncateToHalf(file: string): void {
  truncateSync(file, Math.floor(statSync(file).size / 2));
}

/**
 * Overwrites the 32 bytes before a Parquet file's last 8 (its footer's length and the closing PAR1 mark) with 0xff:
 * the file keeps its size and both marks, and its footer (the schema and where the pages are) is damaged.
 */
export function damageParquetFooter(file: string): void {
  const size = statSync(file).size;
  const descriptor = openSync(file, 'r+');
  try {
    writeSync(descriptor, Buffer.alloc(32, 0xff), 0, 32, size - 40);
  } finally {
    closeSync(descriptor);
  }
}
