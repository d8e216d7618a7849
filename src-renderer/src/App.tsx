export function App() {
  return (
    <main className="app">
      <h1 className="app__title">Replenishment Workbench</h1>
      <p className="app__hint">Workspace tools load here.</p>
    </main>
  );
}
