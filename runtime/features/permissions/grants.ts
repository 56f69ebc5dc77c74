// What a user holds under object permissions (see permissions/index.ts), carried by an
// operation's actor so the write checks inside it know whose writes they judge.

/** Per `<model key>:<action>`, the constraints of each permission granting it (null: unconstrained). */
export interface Grants {
  userId: string;
  superuser: boolean;
  held: Map<string, unknown[]>;
}
