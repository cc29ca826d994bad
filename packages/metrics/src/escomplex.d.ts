// escomplex 1.3.0 ships no types; this is the part of its surface we use (src/index.js, src/module.js).
declare module 'escomplex' {
  interface HalsteadReport {
    readonly length: number;
    readonly vocabulary: number;
    readonly difficulty: number;
    readonly volume: number;
    readonly effort: number;
    readonly bugs: number;
    readonly time: number;
  }
  interface FunctionReport {
    readonly name: string;
    readonly line?: number;
    readonly cyclomatic: number;
    readonly cyclomaticDensity: number;
    readonly params: number;
    readonly sloc: { readonly logical: number; readonly physical?: number };
    readonly halstead: HalsteadReport;
  }
  interface ModuleReport {
    readonly aggregate: FunctionReport;
    readonly functions: readonly FunctionReport[];
    readonly maintainability: number;
    readonly loc: number;
    readonly cyclomatic: number;
    readonly effort: number;
    readonly params: number;
  }
  interface Escomplex {
    analyse(ast: object, walker: { walk(ast: never, settings: never, callbacks: never): void }, options: object): ModuleReport;
  }
  const escomplex: Escomplex;
  export default escomplex;
}
