import Docker from 'dockerode';

/**
 * A deployment id of the test file's own (a letter per file, the worker's pid): the names and
 * the `pincer.deployment` label of its containers, so its cleanup removes exactly them and no
 * other suite's cleanup (running in parallel on the shared engine) removes them mid-test.
 */
export function testDeployment(letter: string): string {
  return `${letter}${process.pid}`;
}

export async function removeDeployment(deploymentId: string): Promise<void> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: [`pincer.deployment=${deploymentId}`] } }).catch(() => []);
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}
