export default function Home() {
  return (
    <main>
      <h1>Rollout Inspector</h1>
      <p>Load a NeMo Gym rollouts file to see every tool call's identity and recompute its reward.</p>
    </main>
  );
}
