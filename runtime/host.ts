// What a hook may read of the machine this instance runs on (a secrets provider's
// environment variable or file): through here, so hook modules never reach for I/O themselves.
import { readFile, stat } from "node:fs/promises";

/** The value of an environment variable of this process, or undefined. */
export const environmentValue = (name: string): string | undefined => process.env[name];

/** Whether `path` is a regular file. */
export const isFile = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);

/** A text file's contents (UTF-8). */
export const readText = (path: string): Promise<string> => readFile(path, "utf8");
