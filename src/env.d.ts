// tsc sees .astro components only through this declaration; `astro build` checks them itself.
declare module '*.astro' {
  const Component: (props: Record<string, unknown>) => unknown;
  export default Component;
}
