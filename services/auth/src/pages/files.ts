import { listSourceFiles, readSourceFile } from '../source-files';

/** A file of this folder (the layout, the assets, the shared pages' templates) by its path under pages/. */
export const readPageFile = (relativePath: string): Buffer => readSourceFile(`pages/${relativePath}`);

export const listPageFiles = (relativeDir: string): string[] => listSourceFiles(`pages/${relativeDir}`);
