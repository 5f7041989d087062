/**
 * Module boundaries that ESLint's file-level rules cannot see (`npm run lint`): the server's
 * module folders (apps/server/src/modules/<area>) import each other one way only. A folder cycle
 * such as bookings -> payments -> bookings is an error even when no single file imports itself
 * back.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-module-folder-cycle',
      severity: 'error',
      comment: 'Module folders depend one way: move the shared piece down, or pass a function in.',
      scope: 'folder',
      from: { path: '^apps/server/src/modules/[^/]+/?$' },
      to: { path: '^apps/server/src/modules/[^/]+/?$', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
  },
};
