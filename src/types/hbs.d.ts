declare module 'hbs' {
  interface Hbs {
    registerPartial(name: string, template: string): void;
    __express: (path: string, options: object, callback: (err: Error | null, html?: string) => void) => void;
  }
  const hbs: Hbs;
  export default hbs;
}
