import { REWARDS, type Reward, rewardName } from "@/lib/run";
import styles from "./TriagePanel.module.css";

const LABEL: Readonly<Record<Reward, string>> = {
  recorded: "recorded",
  contract: "recomputed · contract",
  legacy: "recomputed · legacy",
};

/**
 * The run view's one reward switch (lib/run reward.ts, `?reward=` in the URL): the headline, the
 * breakdown, the zero tile and chip, pass@k, "passed", the distribution and the scope statements all
 * read the reward chosen here.
 */
export function RewardSwitch({ reward, onReward }: { reward: Reward; onReward(reward: Reward): void }) {
  return (
    <fieldset
      className={styles.triageViews}
      aria-label="Which reward the run view reads"
      data-testid="reward-switch"
      data-reward={reward}
    >
      {REWARDS.map((candidate) => (
        <button
          type="button"
          key={candidate}
          aria-pressed={candidate === reward}
          data-reward-choice={candidate}
          title={`Count zeros and pass@k in ${rewardName(candidate)}`}
          onClick={() => onReward(candidate)}
        >
          {LABEL[candidate]}
        </button>
      ))}
    </fieldset>
  );
}
