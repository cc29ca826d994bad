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
  /**
   * escomplex hands the walker its own callbacks (processNode, createScope, popScope); the walker
   * declares what it calls them with, and `options` reach the walker as its settings.
   */
  interface Escomplex {
    analyse<Ast extends object, Settings extends object, Callbacks>(
      ast: Ast,
      walker: { walk(ast: Ast, settings: Settings, callbacks: Callbacks): void },
      options: Settings,
    ): ModuleReport;
  }
  const escomplex: Escomplex;
  export default escomplex;
}
