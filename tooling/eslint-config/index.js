// Flat ESLint config shared by every Cuttle package and app.
// Type-aware rules come from typescript-eslint's project service, which finds the nearest
// tsconfig.json of each linted file, so packages need no per-package ESLint setup.
import tseslint from 'typescript-eslint';

const noDefaultExport = {
  selector: 'ExportDefaultDeclaration',
  message: 'Cuttle uses named exports only (see STYLE.md).',
};

/**
 * @param {{ root: string }} options root: the directory that holds the workspace's tsconfig files
 * @returns {import('typescript-eslint').ConfigArray}
 */
export function cuttleConfig({ root }) {
  return tseslint.config(
    {
      ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**', '.device/**', '**/.bench-out/**'],
    },
    ...tseslint.configs.strictTypeChecked,
    ...tseslint.configs.stylisticTypeChecked,
    {
      languageOptions: {
        parserOptions: {
          projectService: {
            allowDefaultProject: ['*.js', '*.mjs', '*.ts', 'tooling/*/*.js', 'tooling/scripts/*.mjs'],
          },
          tsconfigRootDir: root,
        },
      },
      linterOptions: { reportUnusedDisableDirectives: 'error' },
      rules: {
        'no-restricted-syntax': ['error', noDefaultExport],
        '@typescript-eslint/no-explicit-any': 'error',
        '@typescript-eslint/consistent-type-imports': 'error',
        '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
        // Hot loops index typed arrays by number; `arr[i]!` is the honest way to say "in range".
        '@typescript-eslint/no-non-null-assertion': 'off',
        '@typescript-eslint/prefer-for-of': 'off',
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      },
    },
    {
      // Tool configuration files must default-export by those tools' contracts,
      // and ambient module declarations (e.g. `*.wgsl?raw`) describe a default export.
      files: ['**/*.config.{ts,js,mjs}', '**/eslint.config.js', '**/*.d.ts'],
      rules: { 'no-restricted-syntax': 'off' },
    },
    {
      files: ['**/*.{js,mjs}'],
      ...tseslint.configs.disableTypeChecked,
    },
  );
}
